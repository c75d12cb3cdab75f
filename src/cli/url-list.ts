/**
 * The URLs of `check`: positional arguments first, then `--file` (one a line; `-` is stdin).
 * Every entry is validated before any run is spent, and a problem names where it is
 * (`sites.txt:4: …`, `argument 2: …`). Blank lines, `#` comment lines and inline ` # comments`
 * are skipped; a bare host (`example.com`) is read as `https://example.com/`, and said so.
 */
import { readFile } from 'node:fs/promises'
import { InvalidUrlError, UsageError } from './errors.js'

export interface UrlEntry {
  /** The URL to send. */
  url: string
  /** Where it came from: `argument 2`, `sites.txt:4`, `stdin:3`. */
  where: string
  /** Set when the entry was completed (a bare host given https://). */
  note?: string
}

export interface UrlProblem {
  where: string
  message: string
}

/** A host name or IP, an optional port, an optional path: what people type without a scheme. */
const BARE_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]+\.?(?::\d{1,5})?(?:[/?#].*)?$|^\[[0-9a-f:.]+\](?::\d{1,5})?(?:[/?#].*)?$|^localhost(?::\d{1,5})?(?:[/?#].*)?$/i
const SCHEME = /^([a-z][a-z0-9+.-]*):/i

/** Judge one entry: the URL to send, or the problem with it. */
export function judgeEntry(raw: string, where: string): UrlEntry | UrlProblem {
  const text = raw.trim()
  if (/\s/.test(text))
    return {
      where,
      message: `${JSON.stringify(text)} contains a space: a URL cannot (write it as %20, or put one URL a line)`,
    }
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase()
  if (scheme === undefined || (!text.includes('//') && BARE_HOST.test(text))) {
    if (BARE_HOST.test(text)) {
      const url = `https://${text}`
      try {
        const href = new URL(url).href
        return { url: href, where, note: `${text} has no scheme: checking ${href}` }
      } catch {
        // falls through to the error below
      }
    }
    return {
      where,
      message: `${JSON.stringify(text)} is not a URL: write it in full, like https://example.com/`,
    }
  }
  if (scheme !== 'http' && scheme !== 'https')
    return { where, message: `${JSON.stringify(text)}: only http and https URLs can be checked` }
  try {
    new URL(text)
  } catch {
    return { where, message: `${JSON.stringify(text)} is not a valid URL (check its host name and port)` }
  }
  return { url: text, where }
}

/** The entries of a URL list file. */
export function parseUrlList(text: string, name: string): Array<UrlEntry | UrlProblem> {
  const out: Array<UrlEntry | UrlProblem> = []
  text.split(/\r?\n/).forEach((line, i) => {
    // `#` starts a comment at the start of a line or after whitespace; inside a URL it is a fragment
    const content = line.replace(/(^|\s)#.*$/, '').trim()
    if (content !== '') out.push(judgeEntry(content, `${name}:${i + 1}`))
  })
  return out
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

export const isProblem = (e: UrlEntry | UrlProblem): e is UrlProblem => 'message' in e

/**
 * Every URL of the command line and the file, all validated. One problem is the UsageError's
 * message; with several, `onProblem` sees each (printed before the error, which lists where).
 */
export async function collectUrls(
  args: string[],
  file: string | undefined,
  o: { stdin?: NodeJS.ReadableStream; onProblem?: (p: UrlProblem) => void } = {},
): Promise<UrlEntry[]> {
  const all: Array<UrlEntry | UrlProblem> = args.map((a, i) =>
    judgeEntry(a, args.length > 1 ? `argument ${i + 1}` : 'the URL'),
  )
  if (file !== undefined) {
    let text: string
    try {
      text = file === '-' ? await readStream(o.stdin ?? process.stdin) : await readFile(file, 'utf8')
    } catch (err) {
      const e = err as NodeJS.ErrnoException
      const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory' : e.message
      throw new UsageError(`Cannot read --file ${file}: ${why}.`)
    }
    all.push(...parseUrlList(text, file === '-' ? 'stdin' : file))
  }
  const problems = all.filter(isProblem)
  if (problems.length === 1)
    throw new InvalidUrlError(`${problems[0].where}: ${problems[0].message}. Nothing was checked.`)
  if (problems.length > 1) {
    for (const p of problems) o.onProblem?.(p)
    throw new InvalidUrlError(
      `${problems.length} entries are not URLs that can be checked (${problems.map((p) => p.where).join(', ')}). Nothing was checked.`,
    )
  }
  const urls = all as UrlEntry[]
  if (urls.length === 0) {
    throw new UsageError(
      file !== undefined
        ? `No URL in --file ${file}: put one URL a line (blank lines and # comments are skipped).`
        : 'No URL given: pass one or more URLs, or --file PATH (- reads stdin).',
    )
  }
  return urls
}
