/**
 * One rule for a URL a person or an agent types (`check`, `monitors create`, the MCP tools, the
 * as-code file): a full http(s) URL is taken as it is; a bare host (`example.com`,
 * `127.0.0.1:8000`, `localhost:3000/health`) means https, and the caller says so; anything else
 * is refused with what to write. When the https attempt then fails, `plainHttpHint` says how to
 * ask for http. The API itself takes full URLs only (docs/api.md#routes); this rule lives in its clients.
 */

/** A host name or IP, an optional port, an optional path: what people type without a scheme. */
const BARE_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]+\.?(?::\d{1,5})?(?:[/?#].*)?$|^\[[0-9a-f:.]+\](?::\d{1,5})?(?:[/?#].*)?$|^localhost(?::\d{1,5})?(?:[/?#].*)?$/i
const SCHEME = /^([a-z][a-z0-9+.-]*):/i

export type TargetUrl =
  | {
      url: string
      /** Set when a bare host was completed with https://: say so. */
      note?: string
      /** The http:// form of a bare host, to suggest when the https attempt fails. */
      plainHttp?: string
    }
  | { problem: string }

/** Read one typed URL by the rule above (no trailing full stop on `problem` or `note`). */
export function readTargetUrl(raw: string): TargetUrl {
  const text = raw.trim()
  if (/\s/.test(text))
    return {
      problem: `${JSON.stringify(text)} contains a space: a URL cannot (write it as %20, or put one URL a line)`,
    }
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase()
  // `localhost:3000` and `example.com:8080` look like a scheme to the URL parser: no `//`, a host
  if (scheme === undefined || (!text.includes('//') && BARE_HOST.test(text))) {
    if (BARE_HOST.test(text)) {
      try {
        const href = new URL(`https://${text}`).href
        return {
          url: href,
          note: `${text} has no scheme: checking ${href}`,
          plainHttp: new URL(`http://${text}`).href,
        }
      } catch {
        // falls through to the problem below
      }
    }
    return { problem: `${JSON.stringify(text)} is not a URL: write it in full, like https://example.com/` }
  }
  if (scheme !== 'http' && scheme !== 'https')
    return { problem: `${JSON.stringify(text)}: only http and https URLs can be checked` }
  try {
    new URL(text)
  } catch {
    return { problem: `${JSON.stringify(text)} is not a valid URL (check its host name and port)` }
  }
  return { url: text }
}

/** After a bare host's https attempt failed: how to ask for plain http. */
export function plainHttpHint(plainHttp: string): string {
  return `No scheme was given, so https was tried: for plain HTTP, use ${plainHttp}`
}

/**
 * What a tool's input schema declares for such a URL (JSON Schema patterns have no `i` flag): a
 * full http(s) URL in any case, or a bare host with an optional port and path. readTargetUrl
 * has the last word.
 */
export const TARGET_URL_PATTERN =
  '^(?:[Hh][Tt][Tt][Pp][Ss]?://\\S+|(?:\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9][A-Za-z0-9.-]*)(?::\\d{1,5})?(?:[/?#]\\S*)?)$'
