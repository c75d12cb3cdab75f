/// <reference lib="dom" />
/**
 * Progressive enhancement for the server-rendered dashboard: every page works without this file.
 * It adds the copy button of a new key's secret, the running-check progress (both announce
 * themselves through a live region for screen readers), and the refresh of a page's live parts
 * while it is open.
 */
import './style.css'

function announce(el: Element | null, text: string) {
  if (el) el.textContent = text
}

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  const target = document.getElementById(button.dataset.copy ?? '') as HTMLInputElement | null
  const status = document.getElementById(button.dataset.status ?? '')
  button.hidden = false
  // copy() handles its own failure (no clipboard on plain http, or permission refused)
  const copy = async () => {
    if (!target) return
    try {
      await navigator.clipboard.writeText(target.value)
      announce(status, 'Copied to the clipboard.')
    } catch {
      target.select()
      announce(status, 'Selected: press Ctrl+C (or ⌘C) to copy.')
    }
  }
  button.addEventListener('click', () => void copy())
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-progress]')) {
  const panel = document.getElementById(form.dataset.progress ?? '')
  form.addEventListener('submit', () => {
    if (!panel) return
    const button = form.querySelector<HTMLButtonElement>('button[type=submit]')
    // a second click would start (and charge) a second check
    if (button) {
      button.setAttribute('aria-disabled', 'true')
      form.addEventListener('submit', (e) => e.preventDefault())
    }
    panel.hidden = false
    const text = panel.querySelector('[data-elapsed]')
    const started = Date.now()
    const tick = () => announce(text, `Checking… ${Math.round((Date.now() - started) / 1000)} s`)
    tick()
    setInterval(tick, 1000)
  })
}

/**
 * A page with `data-refresh` (monitors, a monitor) fetches itself again every so many seconds while
 * it is visible and swaps its `[data-live]` parts in place: no full reload, no lost scroll position
 * or half-typed form. The chart draws itself again on the event it sends.
 */
const refreshSeconds = Number(document.body.dataset.refresh ?? 0)
if (refreshSeconds > 0) {
  let busy = false
  // refresh() handles its own failures; setInterval drops the promise it returns
  const refresh = async () => {
    if (busy || document.hidden) return
    busy = true
    try {
      const res = await fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
      if (!res.ok || res.redirected) return
      const fresh = new DOMParser().parseFromString(await res.text(), 'text/html')
      const next = fresh.querySelectorAll('[data-live]')
      const now = document.querySelectorAll('[data-live]')
      if (next.length !== now.length) return
      now.forEach((el, i) => el.replaceWith(next[i]))
      const data = fresh.getElementById('history-data')
      const mine = document.getElementById('history-data')
      if (data && mine) mine.textContent = data.textContent
      document.dispatchEvent(new CustomEvent('sitehealth:refreshed'))
    } catch {
      // offline for a moment: the next tick tries again
    } finally {
      busy = false
    }
  }
  setInterval(() => void refresh(), refreshSeconds * 1000)
}
