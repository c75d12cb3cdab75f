/** The few HTML helpers every public page part shares: escaping and UTC times. */

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c])

/** "2026-11-25 08:30 UTC" */
export const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
export const time = (iso: string) => `<time datetime="${esc(iso)}">${utc(iso)}</time>`
