/**
 * The data-dir lock: one process serves a data dir at a time. The lock is a file created
 * exclusively (`link()` of a fully written temp file, so the lock never appears empty) holding the
 * owner's pid. A lock whose pid is no longer alive (the owner was `kill -9`ed) is stale and taken
 * over; the takeover itself is guarded by a second exclusive file so two processes starting at the
 * same moment cannot both take over the same stale lock.
 *
 * Limits: liveness is judged with `kill(pid, 0)` on this host; a data dir shared between hosts
 * over a network file system, or a dead owner's pid reused by an unrelated live process, would
 * keep the lock (the message names the pid and the file so an operator can remove it).
 */
import { link, open, readdir, readFile, stat, unlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { FILE_MODE, fsyncDir } from './durable-file.js'

export const LOCK_FILE = 'sitehealth.lock'

export class DataDirLockedError extends Error {
  readonly dataDir: string
  readonly pid: number | undefined
  readonly lockFile: string

  constructor(dataDir: string, pid: number | undefined, lockFile: string) {
    super(
      `The data directory ${dataDir} is already in use by another sitehealth process` +
        (pid === undefined ? '' : ` (pid ${pid})`) +
        `. Stop that process or choose another --data-dir. (Lock file: ${lockFile})`,
    )
    this.name = 'DataDirLockedError'
    this.dataDir = dataDir
    this.pid = pid
    this.lockFile = lockFile
  }
}

export interface DirLock {
  readonly file: string
  release(): Promise<void>
}

/** Lock files held by this process (a pid equal to ours in a lock we do not hold is a previous incarnation's). */
const heldHere = new Set<string>()

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function readPid(file: string): Promise<number | undefined | 'missing'> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'
    throw err
  }
  const m = /^(\d+)\s*$/.exec(text)
  return m ? Number(m[1]) : undefined
}

let tmpCounter = 0

/** Creates `file` holding `content` only if it does not exist yet (EEXIST otherwise). */
async function createExclusive(file: string, content: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`
  const fh = await open(tmp, 'wx', FILE_MODE)
  try {
    await fh.writeFile(content)
    await fh.sync()
  } finally {
    await fh.close()
  }
  try {
    await link(tmp, file)
  } finally {
    await unlink(tmp).catch(() => {})
  }
}

const TAKEOVER_STALE_MS = 10_000

export async function acquireDirLock(dataDir: string): Promise<DirLock> {
  const dir = resolve(dataDir)
  const file = join(dir, LOCK_FILE)
  // Claimed synchronously, so two opens in this process cannot both proceed.
  if (heldHere.has(file)) throw new DataDirLockedError(dir, process.pid, file)
  heldHere.add(file)
  try {
    return await acquire(dir, file)
  } catch (err) {
    heldHere.delete(file)
    throw err
  }
}

async function acquire(dir: string, file: string): Promise<DirLock> {
  const takeover = `${file}.takeover`
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await createExclusive(file, `${process.pid}\n`)
      await fsyncDir(dir)
      return {
        file,
        async release() {
          if (!heldHere.delete(file)) return
          if ((await readPid(file)) === process.pid) {
            await unlink(file).catch(() => {})
            await fsyncDir(dir).catch(() => {})
          }
        },
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }

    const owner = await readPid(file)
    if (owner === 'missing') continue // released meanwhile: try again
    if (owner !== undefined && owner !== process.pid && isAlive(owner))
      throw new DataDirLockedError(dir, owner, file)

    // Stale (dead owner, unreadable content, or our own pid left by a previous incarnation).
    try {
      await createExclusive(takeover, `${process.pid}\n`)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      // Someone else is taking over; a takeover file left by a crash expires.
      const st = await stat(takeover).catch(() => undefined)
      if (st && Date.now() - st.mtimeMs > TAKEOVER_STALE_MS) await unlink(takeover).catch(() => {})
      await sleep(20 + Math.random() * 30)
      continue
    }
    try {
      // Still the same stale lock? Then remove it and race for it again through the exclusive create.
      if ((await readPid(file)) === owner) await unlink(file).catch(() => {})
    } finally {
      await unlink(takeover).catch(() => {})
    }
  }
  throw new DataDirLockedError(dir, undefined, file)
}

/** Removes temp files of lock attempts whose process is gone (a crash between create and link). */
export async function removeStaleLockTemps(dataDir: string): Promise<void> {
  const names = await readdir(dataDir).catch(() => [] as string[])
  for (const name of names) {
    const m = /^sitehealth\.lock\.(\d+)\.\d+\.tmp$/.exec(name)
    if (m && Number(m[1]) !== process.pid && !isAlive(Number(m[1])))
      await unlink(join(dataDir, name)).catch(() => {})
  }
}
