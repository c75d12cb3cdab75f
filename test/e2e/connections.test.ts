/**
 * Issue 16 item 8 as an attack: with a small file-descriptor limit (ulimit -n 256), one
 * unauthenticated client opens 300 idle sockets to `serve`. Legitimate runs must still work: the
 * server keeps half its descriptors for checks and closes the hog's idle sockets to make room.
 */
import { execa, type ResultPromise } from 'execa'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHostileTargets, type HostileTargets } from '../fixtures/hostile.js'
import { CLI } from '../helpers/serve.js'

let hostile: HostileTargets
beforeAll(async () => {
  hostile = await startHostileTargets({ maxLifeMs: 20_000 })
})
afterAll(() => hostile?.close())

/** `serve` under `ulimit -n <fds>`, as a small container or a default systemd unit would run it. */
async function serveWithFdLimit(fds: number, dataDir: string): Promise<{ url: string; proc: ResultPromise }> {
  const proc = execa(
    'sh',
    [
      '-c',
      `ulimit -n ${fds} && exec node "$0" "$@"`,
      CLI,
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--allow-private-targets',
      '--quiet',
    ],
    { reject: false, all: true, buffer: false },
  )
  let out = ''
  proc.all!.on('data', (d: Buffer) => (out += d.toString()))
  for (let i = 0; i < 200; i++) {
    const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)
    if (m) return { url: m[1], proc }
    if (proc.exitCode !== null) break
    await sleep(100)
  }
  proc.kill()
  throw new Error(`serve did not start:\n${out}`)
}

describe('connection caps (ulimit -n 256)', () => {
  it('keeps serving runs while one client holds 300 idle sockets', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sitehealth-conn-'))
    const { url, proc } = await serveWithFdLimit(256, dataDir)
    const port = Number(new URL(url).port)
    const hog: net.Socket[] = []
    let hogClosed = 0
    try {
      const adminToken = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim()
      // the hog connects from another loopback address and never sends a byte
      await Promise.all(
        Array.from(
          { length: 300 },
          () =>
            new Promise<void>((resolve) => {
              const s = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' })
              s.on('error', () => {})
              s.once('close', () => hogClosed++)
              s.once('connect', () => resolve())
              s.once('close', () => resolve())
              hog.push(s)
            }),
        ),
      )
      await sleep(300)
      const created = await request(`${url}/api/admin/v1/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'legit', credits: 5 }),
      })
      expect(created.statusCode).toBe(201)
      const { key } = (await created.body.json()) as { key: string }
      for (let i = 0; i < 3; i++) {
        const run = await request(`${url}/api/public/v1/checks/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `${hostile.ok}?i=${i}` }),
        })
        const text = await run.body.text()
        expect(run.statusCode, text).toBe(200)
      }
      // the server let go of the hog's surplus instead of running out of descriptors
      expect(hogClosed).toBeGreaterThanOrEqual(300 - 128)
      expect(proc.exitCode).toBeNull()
    } finally {
      for (const s of hog) s.destroy()
      proc.kill('SIGTERM')
      await proc
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
