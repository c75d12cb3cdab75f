/** The URLs of `check`: positional arguments first, then `--file` (one a line; `-` is stdin). */
import { readFile } from 'node:fs/promises'
import { UsageError } from './errors.js'

/** One URL a line; blank lines and lines starting with `#` are skipped; whitespace trimmed. */
export function parseUrlList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

export async function collectUrls(
  args: string[],
  file: string | undefined,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<string[]> {
  const urls = [...args]
  if (file !== undefined) {
    let text: string
    try {
      text = file === '-' ? await readStream(stdin) : await readFile(file, 'utf8')
    } catch (err) {
      throw new UsageError(`Cannot read --file ${file}: ${(err as Error).message}`)
    }
    urls.push(...parseUrlList(text))
  }
  if (urls.length === 0) {
    throw new UsageError(
      file !== undefined
        ? `No URL in --file ${file}: put one URL a line (blank lines and # comments are skipped).`
        : 'No URL given: pass one or more URLs, or --file PATH (- reads stdin).',
    )
  }
  return urls
}
