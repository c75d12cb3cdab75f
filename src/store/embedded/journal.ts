/**
 * An append-only JSON-lines journal with group commit: every `append` resolves once its line is
 * written AND fsynced ("acknowledged means on disk"), but lines appended while a flush is running
 * wait for the next flush and share its single write + fdatasync. At a few hundred writes a
 * second this costs a handful of fsyncs a second instead of one per write (the same idea as
 * PostgreSQL's commit_delay / group commit).
 *
 * Faults (docs/decisions.md#faults): a write may be short (a full disk writes part of a batch and says so; that
 * is not an error), so the batch is written until every byte is on disk, or the flush fails. A
 * failed flush cuts the file back to its last durable line before anything else is appended, so a
 * torn line can never end up in the middle with acknowledged lines behind it; its callers are
 * rejected (the request fails, 503) and their `onDurable` never runs, so memory stays what the
 * disk says. Once space returns, the next append simply works.
 *
 * Crash safety: a `kill -9` can leave a torn last line; `readJournal` drops a last line that does
 * not parse (it was never acknowledged, since its fsync had not returned) and `open` truncates
 * the file to the last whole line before appending again. A line that does not parse in the
 * middle (left by versions before the cut-back above) is skipped with a warning, so the store
 * always starts.
 */
import { open, readFile, truncate, type FileHandle } from 'node:fs/promises'
import { FILE_MODE, fsyncDir } from './durable-file.js'
import { dirname } from 'node:path'
import { StorageFullError } from '../unavailable.js'

/** Writes part or all of `buf` at the end of the file; resolves with the bytes written. */
export type WriteFn = (fh: FileHandle, buf: Buffer) => Promise<number>

const writeAll: WriteFn = async (fh, buf) => (await fh.write(buf)).bytesWritten

export interface JournalStats {
  /** fdatasync calls. */
  syncs: number
  /** Lines made durable. */
  lines: number
  bytes: number
}

/** The whole lines of a journal, parsed, the byte length they span, and what was dropped. */
export async function readJournal<T>(
  file: string,
): Promise<{ entries: T[]; validBytes: number; warnings: string[] }> {
  let buf: Buffer
  try {
    buf = await readFile(file)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], validBytes: 0, warnings: [] }
    throw err
  }
  const entries: T[] = []
  const warnings: string[] = []
  let start = 0
  let validBytes = 0
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start)
    if (nl < 0) {
      warnings.push(
        `${file}: cut a torn last line of ${buf.length - start} bytes at byte ${start} (never acknowledged)`,
      )
      break
    }
    const line = buf.subarray(start, nl).toString('utf8')
    try {
      if (line.trim()) entries.push(JSON.parse(line) as T)
    } catch {
      if (nl + 1 >= buf.length) {
        warnings.push(
          `${file}: cut a torn last line of ${nl + 1 - start} bytes at byte ${start} (never acknowledged)`,
        )
        break
      }
      // a torn line in the middle: skip it, keep every whole line after it
      warnings.push(`${file}: skipped an unreadable line of ${nl + 1 - start} bytes at byte ${start}`)
    }
    start = nl + 1
    validBytes = start
  }
  return { entries, validBytes, warnings }
}

export class Journal {
  readonly stats: JournalStats = { syncs: 0, lines: 0, bytes: 0 }
  private fh: FileHandle | undefined
  private buffer: string[] = []
  private waiters: { resolve: () => void; reject: (e: unknown) => void; onDurable?: () => void }[] = []
  private flushing: Promise<void> | undefined
  private gate: Promise<void> | undefined
  /** Bytes in the file that are durable lines (for compaction decisions and cut-backs). */
  size = 0
  /** A failed flush could not cut its partial bytes off yet. */
  private dirty = false

  private constructor(
    readonly file: string,
    private readonly write: WriteFn,
  ) {}

  /** Opens for appending after `validBytes` (a torn tail beyond it is cut off). */
  static async open(file: string, validBytes: number, write: WriteFn = writeAll): Promise<Journal> {
    const j = new Journal(file, write)
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

  /**
   * Resolves when the entry is durable. `onDurable` runs at that moment, before any later flush or
   * compaction starts (the caller applies the change to memory there, never before).
   */
  append(entry: unknown, onDurable?: () => void): Promise<void> {
    if (!this.fh) return Promise.reject(new Error('The journal is closed.'))
    this.buffer.push(JSON.stringify(entry) + '\n')
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject, onDurable }))
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
        const buf = Buffer.from(lines.join(''))
        try {
          if (this.dirty) await this.cutBack()
          if (this.dirty) throw Object.assign(new Error('The journal could not be cut back'), { code: 'EIO' })
          await this.writeFully(buf)
          await this.fh!.datasync()
        } catch (err) {
          await this.cutBack()
          const failure = asStorageError(err, this.file)
          for (const w of waiters) w.reject(failure)
          continue
        }
        this.size += buf.length
        this.stats.syncs++
        this.stats.lines += lines.length
        this.stats.bytes += buf.length
        for (const w of waiters) {
          w.onDurable?.()
          w.resolve()
        }
      }
    } finally {
      this.flushing = undefined
    }
  }

  /** A short write is not an error: write the rest until every byte is written, or fail. */
  private async writeFully(buf: Buffer): Promise<void> {
    let off = 0
    while (off < buf.length) {
      const n = await this.write(this.fh!, buf.subarray(off))
      if (!(n > 0))
        throw Object.assign(new Error('No space left on device (short write)'), { code: 'ENOSPC' })
      off += n
    }
  }

  /**
   * After a failed flush: cut the file back to its last durable line, so the next line never lands
   * behind a torn one. Shrinking a file needs no space. If even that fails, the file stays closed
   * to appends until a later truncate succeeds (every append fails meanwhile).
   */
  private async cutBack(): Promise<void> {
    try {
      await this.fh!.truncate(this.size)
      await this.fh!.datasync()
    } catch {
      // next flush tries again: appends fail until it works
      this.dirty = true
      return
    }
    this.dirty = false
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

/** A write the disk refused (full, quota, read-only, I/O) as the store's outage error. */
function asStorageError(err: unknown, file: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS' || code === 'EIO')
    return new StorageFullError(`Cannot write ${file}: ${(err as Error).message}`, { cause: err })
  return err
}
