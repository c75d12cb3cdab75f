/**
 * The embedded monitor store's snapshot.json, written and read one item at a time: at 10,000
 * monitors with 100 runs each it is a few hundred MB, which as one JSON string would double the
 * store's memory while it is folded or loaded (and could pass V8's longest string).
 *
 * The file is ordinary JSON, `{"version":1,"monitors":[…],"runs":[…],"events":[…]}`, with each
 * item on a line of its own (JSON.stringify never writes a raw newline), so a reader can take it
 * a line at a time. A snapshot written before this form (one line) is read whole, as before.
 */
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'

/** Pieces of about this many characters are handed to the writer. */
const PIECE_CHARS = 1 << 20

/** The snapshot's text in pieces, each made when it is asked for. */
export function* snapshotPieces(
  version: number,
  sections: Record<string, Iterable<unknown>>,
): Generator<string> {
  let out = `{"version":${version}`
  for (const [name, items] of Object.entries(sections)) {
    out += `,${JSON.stringify(name)}:[`
    let first = true
    for (const item of items) {
      out += `${first ? '' : ','}\n${JSON.stringify(item)}`
      first = false
      if (out.length >= PIECE_CHARS) {
        yield out
        out = ''
      }
    }
    out += '\n]'
  }
  yield `${out}}\n`
}

const HEAD = /^\{"version":(\d+),"(\w+)":\[$/
const NEXT = /^\],"(\w+)":\[$/

/**
 * Hands every item of the snapshot in `file` to `onItem` with its section's name, in file order;
 * false when there is no file. Throws on a file cut short or not JSON.
 */
export async function readSnapshot(
  file: string,
  onItem: (section: string, item: unknown) => void,
): Promise<boolean> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })
  const opened = new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true))
    stream.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' ? resolve(false) : reject(err),
    )
  })
  if (!(await opened)) return false
  let section: string | undefined
  let ended = false
  let lineNo = 0
  try {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      lineNo++
      if (lineNo === 1) {
        const head = HEAD.exec(line)
        if (head) {
          section = head[2]
          continue
        }
        // one line: a snapshot of the older form, read whole
        const whole = JSON.parse(line) as Record<string, unknown>
        for (const [name, items] of Object.entries(whole))
          if (Array.isArray(items)) for (const item of items) onItem(name, item)
        ended = true
        continue
      }
      if (ended) {
        if (line.trim() !== '') throw new Error(`unexpected text after the end, line ${lineNo}`)
        continue
      }
      const next = NEXT.exec(line)
      if (next) section = next[1]
      else if (line === ']}') ended = true
      else onItem(section!, JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line))
    }
  } finally {
    stream.destroy()
  }
  if (!ended) throw new Error('the snapshot is cut short')
  return true
}
