/**
 * A lowdb adapter whose resolved write means "on disk". lowdb's JSONFile (steno) writes a temp
 * file and renames it over the target, which is atomic but not durable: neither the data nor the
 * rename is fsynced, so a power loss or a `kill -9` right after an acknowledged write can lose
 * it. This adapter writes a uniquely named temp file in the same directory (mode 0600), fsyncs
 * it, renames it over the target and fsyncs the directory so the rename itself is durable.
 *
 * Callers serialise writes to one file (the store does, per user and per document); two
 * overlapping writes to the same file would each be atomic but could land in either order.
 */
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Adapter } from 'lowdb'

export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

/** Temp files are `.<target name>.<pid>.<n>.tmp`; anything of the form `.*.tmp` is ours to clean. */
export function isTempFile(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp')
}

let tempCounter = 0

export interface WriteStats {
  writes: number
  bytesWritten: number
}

export class DurableJSONFile<T> implements Adapter<T> {
  readonly filename: string

  constructor(
    filename: string,
    private readonly stats?: WriteStats,
  ) {
    this.filename = filename
  }

  async read(): Promise<T | null> {
    let text: string
    try {
      text = await readFile(this.filename, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
    try {
      return JSON.parse(text) as T
    } catch (err) {
      throw new Error(`Corrupt data file ${this.filename}: ${(err as Error).message}`, { cause: err })
    }
  }

  async write(data: T): Promise<void> {
    const text = JSON.stringify(data)
    const bytes = Buffer.byteLength(text)
    await writeFileDurably(this.filename, text)
    if (this.stats) {
      this.stats.writes++
      this.stats.bytesWritten += bytes
    }
  }
}

/**
 * temp file + fsync + rename + fsync of the directory. `text` may come in pieces (an iterable,
 * consumed one piece at a time as each is written): a snapshot of hundreds of MB never has to be
 * one buffer or one string. A piece is written before the next is asked for, so a maker may
 * reuse one buffer for every piece.
 */
export async function writeFileDurably(
  filename: string,
  text: string | Buffer | Iterable<string | Buffer>,
): Promise<void> {
  const dir = dirname(filename)
  const tmp = join(dir, `.${basename(filename)}.${process.pid}.${++tempCounter}.tmp`)
  const fh = await open(tmp, 'wx', FILE_MODE)
  try {
    try {
      if (typeof text === 'string' || Buffer.isBuffer(text)) await fh.writeFile(text)
      else for (const piece of text) await fh.writeFile(piece) // at the current position
      await fh.sync()
    } finally {
      await fh.close()
    }
    await rename(tmp, filename)
  } catch (err) {
    await unlink(tmp).catch(() => {})
    throw err
  }
  await fsyncDir(dir)
}

/** Makes the entries of a directory (creations, renames, removals) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r')
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}

/** mkdir -p with mode 0700; when it creates directories, their parents' entries are fsynced. */
export async function ensureDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: DIR_MODE })
  if (first === undefined) return
  // fsync every parent from the first created directory's parent down to dir's parent
  let d = dir
  const parents: string[] = []
  while (true) {
    parents.push(dirname(d))
    if (d === first) break
    const up = dirname(d)
    if (up === d) break
    d = up
  }
  for (const p of parents.reverse()) await fsyncDir(p)
}

/** Removes temp files left behind by a crash mid-write; the targets they were meant for are intact. */
export async function removeTempFiles(dir: string): Promise<number> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw err
  }
  let removed = 0
  for (const name of names) {
    if (!isTempFile(name)) continue
    await unlink(join(dir, name)).catch(() => {})
    removed++
  }
  return removed
}

/** Bytes the readiness probe writes: one page, so a disk that cannot take a page fails it. */
const PROBE_BYTES = 4096

/**
 * Writes a temp file of one page in `dir`, fsyncs it and removes it: fails (ENOSPC, EROFS, EIO)
 * when the disk cannot take a write now. A crash in between leaves a `.*.tmp`, cleaned at start.
 */
export async function probeDir(dir: string): Promise<void> {
  const tmp = join(dir, `.ready-probe.${process.pid}.${++tempCounter}.tmp`)
  const fh = await open(tmp, 'wx', FILE_MODE)
  try {
    try {
      await fh.writeFile(Buffer.alloc(PROBE_BYTES, 0x20))
      await fh.sync()
    } finally {
      await fh.close()
    }
  } finally {
    await unlink(tmp).catch(() => {})
  }
}
