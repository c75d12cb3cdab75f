/**
 * Text that fits the terminal: wrapped at word boundaries to the view's width, continuation
 * lines indented under the first (a hanging indent), escape codes not counted (wrap-ansi and
 * string-width do the measuring). Without a width, text is left as it is.
 */
import stringWidth from 'string-width'
import wrapAnsi from 'wrap-ansi'

/** The narrowest column worth wrapping into; below it, text goes on its own line instead. */
export const MIN_TEXT_COLUMNS = 24

export const displayWidth = (text: string): number => stringWidth(text)

/**
 * `prefix` + `text`, wrapped so that no line is wider than `width`; continuation lines start
 * with `hang` spaces. When the prefix leaves less than MIN_TEXT_COLUMNS, the text starts on the
 * next line, indented by `fallbackHang`.
 */
export function hanging(
  prefix: string,
  text: string,
  width: number | undefined,
  o: { hang?: number; fallbackHang?: number } = {},
): string {
  if (width === undefined) return prefix + text
  const hang = o.hang ?? displayWidth(prefix)
  const room = width - hang
  if (room < MIN_TEXT_COLUMNS && prefix.trim() !== '') {
    const indent = o.fallbackHang ?? 4
    return `${prefix.trimEnd()}\n${hanging(' '.repeat(indent), text, width, { hang: indent })}`
  }
  const lines = wrapAnsi(text, Math.max(room, 1), { hard: true, trim: true, wordWrap: true }).split('\n')
  const pad = ' '.repeat(hang)
  return lines.map((line, i) => (i === 0 ? prefix : pad) + line).join('\n')
}

/** A paragraph wrapped to `width` (no indent). */
export function paragraph(text: string, width: number | undefined): string {
  return hanging('', text, width, { hang: 0 })
}
