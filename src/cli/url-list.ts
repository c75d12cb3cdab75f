/**
 * The URLs of `check`: positional arguments first, then `--file` (one a line; `-` is stdin).
 * Every entry is validated before any run is spent, and a problem names where it is
 * (`sites.txt:4: …`, `argument 2: …`). Blank lines, `#` comment lines and inline ` # comments`
 * are skipped; a bare host (`example.com`) is read as `https://example.com/`, and said so.
 */
import { readFile } from 'node:fs/promises'
import { readTargetUrl } from '../contract/index.js'
import { InvalidUrlError, UsageError } from './errors.js'

export interface UrlEntry {
  /** The URL to send. */
  url: string
  /** Where it came from: `argument 2`, `sites.txt:4`, `stdin:3`. */
  where: string
  /** Set when the entry was completed (a bare host given https://). */
  note?: string
  /** A bare host's http:// form, suggested when the https attempt fails. */
  plainHttp?: string
}

export interface UrlProblem {
  where: string
  message: string
}

/** Judge one entry by the one rule of contract/target-url.ts: the URL to send, or the problem with it. */
export function judgeEntry(raw: string, where: string): UrlEntry | UrlProblem {
  const read = readTargetUrl(raw)
  if ('problem' in read) return { where, message: read.problem }
  return { url: read.url, where, note: read.note, plainHttp: read.plainHttp }
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
