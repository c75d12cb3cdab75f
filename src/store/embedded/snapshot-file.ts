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

/** Pieces of about this many bytes are handed to the writer. */
const PIECE_BYTES = 1 << 20

/** A section whose items come as their JSON text already (a line each, no newline in it). */
export class JsonLines {
  constructor(readonly lines: Iterable<string>) {}
}

/**
 * The snapshot's text in pieces of about PIECE_BYTES, each made when it is asked for. Each piece
 * is a view of one buffer that the next reuses: write it before asking for the next (a fold's
 * text never piles up as strings or buffers waiting for the collector, which lifted its peak).
 */
export function* snapshotPieces(
  version: number,
  sections: Record<string, Iterable<unknown> | JsonLines>,
): Generator<Buffer> {
  let buf = Buffer.allocUnsafe(2 * PIECE_BYTES)
  let pos = 0
  const put = (text: string) => {
    // a UTF-16 unit takes at most 3 bytes in UTF-8
    if (pos + 3 * text.length > buf.length) {
      const need = pos + Buffer.byteLength(text)
      if (need > buf.length) {
        const next = Buffer.allocUnsafe(Math.max(2 * buf.length, need))
        buf.copy(next, 0, 0, pos)
        buf = next
      }
    }
    pos += buf.write(text, pos)
  }
  put(`{"version":${version}`)
  for (const [name, items] of Object.entries(sections)) {
    put(`,${JSON.stringify(name)}:[`)
    let first = true
    for (const item of items instanceof JsonLines ? items.lines : items) {
      put(first ? '\n' : ',\n')
      put(items instanceof JsonLines ? (item as string) : JSON.stringify(item))
      first = false
      if (pos >= PIECE_BYTES) {
        yield buf.subarray(0, pos)
        pos = 0
      }
    }
    put('\n]')
  }
  put('}\n')
  yield buf.subarray(0, pos)
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
