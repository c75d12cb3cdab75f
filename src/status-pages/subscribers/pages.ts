/**
 * The small HTML pages a subscriber lands on (docs/status-pages.md): the answer to the page's forms,
 * a followed confirmation or unsubscribe link, and a link that is tampered with or expired. The
 * status page's stylesheet and strict policy, no JavaScript; every text of the owner escaped.
 */
import { esc } from '../html.js'
import { STATUS_CSS } from '../style.js'

export interface NoticePage {
  status: number
  title: string
  /** Paragraphs of plain text (escaped here). */
  lines: string[]
  /** Back to the status page. */
  back?: { href: string; text: string }
  /** Text shown in a <code> block (a webhook secret, shown once). */
  code?: { label: string; value: string }[]
  /** A button that posts the link's token back to this address (the link's action happens on POST). */
  form?: { token: string; button: string }
}

export function renderNoticePage(p: NoticePage): string {
  return (
    '<!doctype html><html lang=en><head><meta charset=utf-8>' +
    '<meta name=viewport content="width=device-width,initial-scale=1"><meta name=color-scheme content="light dark">' +
    `<title>${esc(p.title)}</title><style>${STATUS_CSS}</style></head><body><div class=w><main>` +
    `<h1>${esc(p.title)}</h1>` +
    p.lines.map((l) => `<p class=d>${esc(l)}</p>`).join('') +
    (p.code ?? [])
      .map((c) => `<p><strong>${esc(c.label)}</strong><br><code>${esc(c.value)}</code></p>`)
      .join('') +
    (p.form
      ? `<form method=post><input type=hidden name=token value="${esc(p.form.token)}">` +
        `<button type=submit>${esc(p.form.button)}</button></form>`
      : '') +
    (p.back ? `<p><a href="${esc(p.back.href)}">${esc(p.back.text)}</a></p>` : '') +
    '</main></div></body></html>'
  )
}

export const LINK_PROBLEM_TEXT = {
  invalid:
    'This link is not valid: it may have been cut or changed on the way. Open the link from the mail again, whole.',
  expired: 'This confirmation link has expired (links are valid 7 days). Subscribe again on the status page.',
} as const
