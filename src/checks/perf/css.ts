/**
 * What a stylesheet pulls in: its @import rules (the page reader's `cssImports`, which honours the
 * rule that @import must come first) and the web fonts of its @font-face rules, with whether their
 * text waits for them. The grammar needed is small (a @font-face block has no nested braces), and
 * the text is bounded by the gatherer's CSS cap, so a few anchored patterns suffice.
 */
import { cssImports } from '../page/index.js'

export interface FontFace {
  /** The URL a browser fetches: the first woff2 source, else the first url(). As written. */
  url: string
  /**
   * The text's final paint waits for the font: font-display auto or block (Chrome hides text for up
   * to 3 s), and fallback (Lighthouse's largest paint waits for it as for block: measured on the
   * corpus). swap and optional paint the fallback font first and keep that paint.
   */
  blocksText: boolean
}

export { cssImports }

const COMMENT = /\/\*[\s\S]*?\*\//g
const FONT_FACE = /@font-face\s*\{([^{}]*)\}/gi
const URL_TOKEN = /url\(\s*(["']?)([^"')]+)\1\s*\)(\s*format\(\s*["']?([\w-]+)["']?\s*\))?/gi

export function fontFaces(css: string): FontFace[] {
  const faces: FontFace[] = []
  for (const block of css.replace(COMMENT, '').matchAll(FONT_FACE)) {
    const body = block[1]
    const src = /(?:^|;)\s*src\s*:([^;]*)/i.exec(body)?.[1]
    if (!src) continue
    const urls = [...src.matchAll(URL_TOKEN)].map((m) => ({ url: m[2].trim(), format: m[4]?.toLowerCase() }))
    const chosen = urls.find((u) => u.format === 'woff2' || /\.woff2(\?|#|$)/i.test(u.url)) ?? urls[0]
    if (!chosen || /^data:/i.test(chosen.url)) continue
    const display = /(?:^|;)\s*font-display\s*:\s*([\w-]+)/i.exec(body)?.[1]?.toLowerCase() ?? 'auto'
    faces.push({
      url: chosen.url,
      blocksText: display === 'auto' || display === 'block' || display === 'fallback',
    })
  }
  return faces
}
