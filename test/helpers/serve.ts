/**
 * Spawns the built CLI's `serve` on a free port with a temporary data dir, as a user would, and
 * gives tests its base URL, admin token and a way to issue keys. Shared by every end-to-end test.
 */
import { execa, type ResultPromise } from 'execa'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const CLI = join(import.meta.dirname, '..', '..', 'bin', 'run.js')

export interface ServeOptions {
  /** Extra `serve` flags. `--allow-private-targets` is on unless `allowPrivate: false`. */
  args?: string[]
  allowPrivate?: boolean
  /** Reuse a data dir (restart tests); a fresh temp dir otherwise. */
  dataDir?: string
  env?: Record<string, string>
  /** How long serve may take to print its URL (default 20 s; a lab's browsers start first). */
  startTimeoutMs?: number
}

export interface Served {
  url: string
  dataDir: string
  adminToken: string
  proc: ResultPromise
  /** Everything serve printed on stdout/stderr so far (access log lines included). */
  output: () => string
  /** Create a key through the admin API; returns the secret. */
  createKey: (opts?: {
    user?: string
    credits?: number
    name?: string
  }) => Promise<{ key: string; id: string; user_id: string }>
  /** SIGTERM and wait for exit; removes the temp data dir unless it was given or keepData is set. */
  stop: (opts?: { keepData?: boolean; signal?: NodeJS.Signals }) => Promise<void>
}

/**
 * For tests that poll the API while monitors run: the limit per key (120 requests a minute) is not
 * what they test (test/e2e/ratelimit*.test.ts do), and a slow machine's longer waits would reach it.
 */
export const UNLIMITED = ['--rate-limit', '100000']

export async function startServe(opts: ServeOptions = {}): Promise<Served> {
  const ownDir = !opts.dataDir
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'sitehealth-test-')))
  const args = [
    'serve',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    ...(opts.allowPrivate === false ? [] : ['--allow-private-targets']),
    ...(opts.args ?? []),
  ]
  const proc = execa('node', [CLI, ...args], {
    env: { NO_COLOR: '1', ...opts.env },
    reject: false,
    all: true,
    buffer: false,
  })
  let out = ''
  proc.all!.on('data', (d: Buffer) => (out += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not start in time:\n${out}`)),
      opts.startTimeoutMs ?? 20_000,
    )
    const onData = () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        proc.all!.off('data', onData)
        resolve(m[1])
      }
    }
    proc.all!.on('data', onData)
    // reject: false, so the process's promise settles with its result and never rejects
    void proc.then(() => {
      clearTimeout(timer)
      reject(new Error(`serve exited before it was ready:\n${out}`))
    })
  })
  // with PostgreSQL the token comes from the environment (no data-dir token file)
  const adminToken =
    opts.env?.SITEHEALTH_ADMIN_TOKEN ?? (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim()
  const served: Served = {
    url,
    dataDir,
    adminToken,
    proc,
    output: () => out,
    async createKey(o = {}) {
      const res = await fetch(`${url}/api/admin/v1/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: o.name ?? 'test', user: o.user, credits: o.credits }),
      })
      if (res.status !== 201) throw new Error(`createKey: HTTP ${res.status} ${await res.text()}`)
      return (await res.json()) as { key: string; id: string; user_id: string }
    },
    async stop(s = {}) {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill(s.signal ?? 'SIGTERM')
        await proc
      }
      if (ownDir && !s.keepData) await rm(dataDir, { recursive: true, force: true })
    },
  }
  return served
}
