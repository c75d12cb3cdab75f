/**
 * Bytes of an HTML response to text, by the HTML Standard's encoding sniffing in short: a byte order
 * mark, then the Content-Type charset, then a `<meta charset>` / `http-equiv` declaration in the first
 * 1024 bytes, then UTF-8 (the standard leaves the last fallback to the locale; UTF-8 is what nearly
 * every page declares today). A label TextDecoder does not know falls back to UTF-8; bad bytes become
 * U+FFFD, never an error.
 */
export function decodeHtml(bytes: Uint8Array, contentType: string | null): string {
  const label = bomEncoding(bytes) ?? charsetOf(contentType) ?? metaCharset(bytes) ?? 'utf-8'
  try {
    return new TextDecoder(label).decode(bytes)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}

/**
 * Text worth keeping for assertions (docs/decisions.md#monitoring-depth): text/*, JSON, XML,
 * JavaScript and form bodies, besides HTML. Images, archives and other binaries are only counted.
 */
export function isTextual(contentType: string | null): boolean {
  const essence = (contentType ?? '').split(';')[0].trim().toLowerCase()
  return (
    essence.startsWith('text/') ||
    /^application\/([\w.-]+\+)?(json|xml)$/.test(essence) ||
    essence === 'application/javascript' ||
    essence === 'application/x-www-form-urlencoded'
  )
}

/** text/html and application/xhtml+xml: the only responses read as a page. */
export function isHtml(contentType: string | null): boolean {
  const essence = (contentType ?? '').split(';')[0].trim().toLowerCase()
  return essence === 'text/html' || essence === 'application/xhtml+xml'
}

function bomEncoding(b: Uint8Array): string | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8'
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be'
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le'
  return null
}

function charsetOf(contentType: string | null): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')
  return match ? match[1] : null
}

function metaCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1')
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)
  // a page that says UTF-16 in ASCII bytes is not UTF-16 (HTML Standard: treat as UTF-8)
  if (!match) return null
  return /^utf-16/i.test(match[1]) ? 'utf-8' : match[1]
}
