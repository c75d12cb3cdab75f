/**
 * A small disk that a test can fill and free: a tmpfs mounted in a private mount namespace
 * (`unshare -rm`: a user namespace, so no privilege is needed where the kernel allows user
 * namespaces), kept by a holder process. Every process on the machine reaches it through
 * `/proc/<holder pid>/root/<mount point>`, so `serve` runs unchanged with its data dir there and
 * meets a real ENOSPC (short writes included); nothing in the product is faked. Where unshare or
 * mount is not permitted, `smallDiskProblem` says why and the tests that need it are skipped.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { open, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface SmallDisk {
  /** The tmpfs as every process sees it. */
  dir: string
  /** Fills every free byte with a filler file; returns the bytes it took. */
  fill(): Promise<number>
  /** Removes the filler: the space is back. */
  free(): Promise<void>
  close(): Promise<void>
}

export async function mountSmallDisk(sizeMb = 16): Promise<SmallDisk> {
  const mountPoint = mkdtempSync(join(tmpdir(), 'sitehealth-small-disk-'))
  const holder: ChildProcess = spawn(
    'unshare',
    [
      '-rm',
      'sh',
      '-c',
      `mount -t tmpfs -o size=${sizeMb}m,mode=0700 sitehealth-test "$0" && echo mounted && exec sleep 3600`,
      mountPoint,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  holder.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  holder.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  const mounted = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 5000)
    holder.stdout!.on('data', () => {
      if (out.includes('mounted')) {
        clearTimeout(timer)
        resolve(true)
      }
    })
    holder.on('exit', () => {
      clearTimeout(timer)
      resolve(false)
    })
    holder.on('error', () => {
      clearTimeout(timer)
      resolve(false)
    })
  })
  const cleanup = () => {
    holder.kill('SIGKILL')
    rmSync(mountPoint, { recursive: true, force: true })
  }
  if (!mounted) {
    cleanup()
    throw new Error(`cannot mount a tmpfs with unshare -rm: ${out.trim() || 'no answer'}`)
  }
  const dir = `/proc/${holder.pid}/root${mountPoint}`
  const filler = join(dir, 'filler')
  return {
    dir,
    async fill() {
      const fh = await open(filler, 'a')
      const chunk = Buffer.alloc(64 * 1024)
      let total = 0
      try {
        for (;;) {
          const { bytesWritten } = await fh.write(chunk)
          total += bytesWritten
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
      } finally {
        await fh.close()
      }
      return total
    },
    async free() {
      await unlink(filler).catch(() => {})
    },
    async close() {
      cleanup()
    },
  }
}

/** Why no small disk can be mounted and reached here, or undefined when it can. */
export const smallDiskProblem: string | undefined = await mountSmallDisk(1).then(
  async (d) => {
    try {
      // reachable from outside the namespace (a kernel may refuse /proc/<pid>/root to others)
      await (await open(join(d.dir, 'probe'), 'w')).close()
      return undefined
    } catch (err) {
      return `cannot reach the tmpfs through ${d.dir}: ${(err as Error).message}`
    } finally {
      await d.close()
    }
  },
  (err: Error) => err.message,
)
