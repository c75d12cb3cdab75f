/// <reference lib="dom" />
/**
 * Progressive enhancement for the server-rendered dashboard: every page works without this file.
 * It adds the copy button of a new key's secret and the running-check progress; both announce
 * themselves through a live region for screen readers.
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
