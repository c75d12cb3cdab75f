/**
 * An append-only JSON-lines journal with group commit: every `append` resolves once its line is
 * written AND fsynced ("acknowledged means on disk"), but lines appended while a flush is running
 * wait for the next flush and share its single write + fdatasync. At a few hundred writes a
 * second this costs a handful of fsyncs a second instead of one per write (the same idea as
 * PostgreSQL's commit_delay / group commit).
 *
 * Crash safety: a `kill -9` can leave a torn last line; `readJournal` drops a last line that does
 * not parse (it was never acknowledged, since its fsync had not returned) and `open` truncates
 * the file to the last whole line before appending again.
 */
import { open, readFile, truncate, type FileHandle } from 'node:fs/promises'
import { FILE_MODE, fsyncDir } from './durable-file.js'
import { dirname } from 'node:path'

export interface JournalStats {
  /** fdatasync calls. */
  syncs: number
  /** Lines made durable. */
  lines: number
  bytes: number
}

/** The whole lines of a journal, parsed, and the byte length they span. */
export async function readJournal<T>(file: string): Promise<{ entries: T[]; validBytes: number }> {
  let buf: Buffer
  try {
    buf = await readFile(file)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], validBytes: 0 }
    throw err
  }
  const entries: T[] = []
  let start = 0
  let validBytes = 0
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start)
    if (nl < 0) break // torn tail: never acknowledged
    const line = buf.subarray(start, nl).toString('utf8')
    try {
      if (line.trim()) entries.push(JSON.parse(line) as T)
    } catch {
      // only the last line can be torn; a bad line in the middle is corruption
      if (nl + 1 < buf.length) throw new Error(`Corrupt journal ${file} at byte ${start}`)
      break
    }
    start = nl + 1
    validBytes = start
  }
  return { entries, validBytes }
}

export class Journal {
  readonly stats: JournalStats = { syncs: 0, lines: 0, bytes: 0 }
  private fh: FileHandle | undefined
  private buffer: string[] = []
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = []
  private flushing: Promise<void> | undefined
  private gate: Promise<void> | undefined
  /** Bytes in the file (for compaction decisions). */
  size = 0

  private constructor(readonly file: string) {}

  /** Opens for appending after `validBytes` (a torn tail beyond it is cut off). */
  static async open(file: string, validBytes: number): Promise<Journal> {
    const j = new Journal(file)
    const fh = await open(file, 'a', FILE_MODE)
    const { size } = await fh.stat()
    if (size > validBytes) {
      await fh.close()
      await truncate(file, validBytes)
      j.fh = await open(file, 'a', FILE_MODE)
    } else j.fh = fh
    await fsyncDir(dirname(file))
    j.size = validBytes
    return j
  }

  /** Resolves when the entry is durable. */
  append(entry: unknown): Promise<void> {
    if (!this.fh) return Promise.reject(new Error('The journal is closed.'))
    this.buffer.push(JSON.stringify(entry) + '\n')
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }))
    this.flushing ??= this.flushLoop()
    return done
  }

  private async flushLoop(): Promise<void> {
    // let the current tick's appends join the first batch
    await new Promise((r) => setImmediate(r))
    try {
      while (this.buffer.length > 0) {
        while (this.gate) await this.gate
        const lines = this.buffer
        const waiters = this.waiters
        this.buffer = []
        this.waiters = []
        const text = lines.join('')
        try {
          await this.fh!.write(text)
          await this.fh!.datasync()
          this.size += Buffer.byteLength(text)
          this.stats.syncs++
          this.stats.lines += lines.length
          this.stats.bytes += Buffer.byteLength(text)
          for (const w of waiters) w.resolve()
        } catch (err) {
          for (const w of waiters) w.reject(err)
        }
      }
    } finally {
      this.flushing = undefined
    }
  }

  /** Waits for every pending append. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing
  }

  /**
   * Folds the journal into a snapshot: once every pending line is durable, `writeSnapshot` runs
   * (it must capture the state synchronously at its start, then write it durably), and the journal
   * is emptied. Lines appended meanwhile wait and land in the emptied journal; replaying them on
   * top of the snapshot must be harmless (entries are idempotent).
   */
  async compact(writeSnapshot: () => Promise<void>): Promise<void> {
    await this.idle()
    let open!: () => void
    this.gate = new Promise<void>((r) => (open = r))
    try {
      await writeSnapshot()
      await this.fh!.truncate(0)
      await this.fh!.sync()
      this.size = 0
    } finally {
      this.gate = undefined
      open()
    }
  }

  async close(): Promise<void> {
    await this.idle()
    await this.fh?.close()
    this.fh = undefined
  }
}
