/**
 * Cross-process behaviour: the data-dir lock against another process, and durability when the
 * writing process is killed with SIGKILL mid-stream.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa, type ResultPromise } from 'execa'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DataDirLockedError, openStore, type Store } from '../../../src/store/index.js'
import { removeDir, tempDir, walk } from '../helpers.js'

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url))

let dir: string
let store: Store | undefined
let child: ResultPromise | undefined

beforeEach(async () => {
  dir = await tempDir()
})
afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL')
    await child.catch(() => {})
  }
  child = undefined
  await store?.close()
  store = undefined
  await removeDir(dir)
})

function spawnChild(...args: string[]): ResultPromise {
  return execa('node', ['--import', 'tsx', CHILD, ...args], { reject: false, buffer: false, stderr: 'pipe' })
}

/** Calls onLine for each stdout line; resolves when onLine returns true. */
function readLines(p: ResultPromise, onLine: (line: string) => boolean | void): Promise<void> {
  return new Promise((resolve, reject) => {
    let rest = ''
    let err = ''
    let done = false
    p.stderr?.on('data', (d: Buffer) => (err += d.toString()))
    p.stdout?.on('data', (d: Buffer) => {
      rest += d.toString()
      const lines = rest.split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) {
        if (!done && onLine(line)) {
          done = true
          resolve()
        }
      }
    })
    void p.then(() => {
      if (!done) reject(new Error(`child exited early: ${err}`))
    })
  })
}

async function killHard(p: ResultPromise): Promise<void> {
  p.kill('SIGKILL')
  const r = await p
  expect(r.signal).toBe('SIGKILL')
}

describe('data-dir lock across processes', () => {
  it('refuses a second opener naming the dir and pid, and takes over after kill -9', async () => {
    child = spawnChild('hold', dir)
    await readLines(child, (l) => l === 'ready')
    const err = await openStore(dir).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(DataDirLockedError)
    const msg = (err as Error).message
    expect(msg).toContain(dir)
    expect(msg).toContain(`pid ${child.pid}`)
    expect((err as DataDirLockedError).pid).toBe(child.pid)

    await killHard(child)
    // the lock file is still there, naming a dead pid: stale, taken over
    expect((await readFile(join(dir, 'sitehealth.lock'), 'utf8')).trim()).toBe(String(child.pid))
    store = await openStore(dir)
    expect((await readFile(join(dir, 'sitehealth.lock'), 'utf8')).trim()).toBe(String(process.pid))
    await store.close()
    store = undefined
    await expect(readFile(join(dir, 'sitehealth.lock'))).rejects.toThrow(/ENOENT/)
  })

  it('takes over a lock holding garbage or our own pid from an earlier incarnation', async () => {
    const lock = join(dir, 'sitehealth.lock')
    await writeFile(lock, '')
    store = await openStore(dir)
    // taken over: the lock now names this process
    expect((await readFile(lock, 'utf8')).trim()).toBe(String(process.pid))
    await store.close()
    await writeFile(lock, `${process.pid}\n`)
    store = await openStore(dir)
    expect((await readFile(lock, 'utf8')).trim()).toBe(String(process.pid))
    // and the store it opened works
    await store.users.ensure('lock-taker', 5)
    expect((await store.users.get('lock-taker'))?.credits_granted).toBe(5)
  })
})

describe('crash safety', () => {
  it(
    'kill -9 mid-stream loses no acknowledged check and leaves loadable files',
    { timeout: 60_000 },
    async () => {
      child = spawnChild('commit', dir, '3')
      const acked: { user: string; id: string }[] = []
      const target = 150 + Math.floor(Math.random() * 250)
      await readLines(child, (line) => {
        if (line === 'ready') return false
        const [user, id] = line.split(' ')
        acked.push({ user, id })
        return acked.length >= target
      })
      await killHard(child)
      expect(acked.length).toBeGreaterThanOrEqual(target)

      // every data file on disk parses as it is, before any recovery (temp files are not data files)
      const files = await walk(dir)
      const dataFiles = files.filter(
        (f) => f.path.endsWith('.json') && !f.path.split('/').pop()!.startsWith('.'),
      )
      expect(dataFiles.length).toBeGreaterThan(2)
      for (const f of dataFiles) {
        const text = await readFile(f.path, 'utf8')
        expect(() => JSON.parse(text), f.path).not.toThrow()
      }

      store = await openStore(dir)
      for (const { user, id } of acked) expect((await store.checks.get(user, id))?.id, id).toBe(id)
      // no temp file survives the reopen
      const after = await walk(dir)
      expect(after.filter((f) => f.path.endsWith('.tmp'))).toEqual([])

      for (const user of ['crash-user-0', 'crash-user-1', 'crash-user-2']) {
        const u = await store.users.get(user)
        if (!u) continue // killed before this user was created
        let saved = 0
        let before: string | undefined
        for (;;) {
          const page = await store.checks.list(user, { limit: 50, before })
          saved += page.items.length
          if (!page.next) break
          before = page.next
        }
        expect(u.credits_used, user).toBe(saved)
        expect(await store.users.availableCredits(user)).toBe(1_000_000 - saved)
        expect(saved).toBeGreaterThanOrEqual(acked.filter((a) => a.user === user).length)
      }
      const shardDirs = await readdir(join(dir, 'checks'))
      expect(shardDirs.length).toBeGreaterThan(0)
    },
  )
})
