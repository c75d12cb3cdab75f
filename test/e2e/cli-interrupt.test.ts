/**
 * Ctrl-C during a long command (issue 21): the CLI exits 130 and says on stderr what the request
 * it sent may still do on the server. A check already sent still runs and is charged, so the
 * message points at `recent`, which then shows it.
 */
import { execa } from 'execa'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliRunner, type Env } from '../helpers/cli.js'
import { CLI, startServe, type Served } from '../helpers/serve.js'

let home: string
const { cli, baseEnv } = cliRunner(() => home)
let served: Served
let env: Env
let slow: Server
let slowUrl: string
/** Requests the slow target has received so far, by path (each test uses its own path). */
const hits = new Map<string, number>()
const hitsOn = (url: string) => hits.get(new URL(url).pathname) ?? 0

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-interrupt-'))
  // answers after 4 s: long enough to interrupt the CLI while the server waits on it
  slow = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    setTimeout(() => res.end('<!doctype html><title>slow</title>'), 4_000)
  })
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r))
  slowUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}/`
  served = await startServe()
  const key = (await served.createKey({ user: 'interrupt', credits: 20 })).key
  env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
}, 60_000)
afterAll(async () => {
  await served?.stop()
  slow?.closeAllConnections()
  await new Promise((r) => slow?.close(r))
  await rm(home, { recursive: true, force: true })
})

async function until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

function spawn(args: string[]) {
  const proc = execa(process.execPath, [CLI, ...args], {
    env: baseEnv(env),
    extendEnv: false,
    reject: false,
    all: true,
    timeout: 30_000,
  })
  let out = ''
  proc.all!.on('data', (d: Buffer) => (out += d.toString()))
  return { proc, output: () => out }
}

describe('Ctrl-C', { timeout: 60_000 }, () => {
  it('during check: exit 130, says the check may still be charged, and recent shows it', async () => {
    const url = `${slowUrl}check`
    const { proc } = spawn(['check', url])
    await until(() => hitsOn(url) > 0, 'the check to reach the target')
    proc.kill('SIGINT')
    const r = await proc
    expect(r.exitCode, r.all).toBe(130)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(
      /^Interrupted: the server may still finish the check that was running and charge it \(1 credit\); `sitehealth recent` shows it\.$/m,
    )
    expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/)
    // the server finishes it: `recent` shows the check, charged
    let listed: Array<{ url: string }> = []
    const end = Date.now() + 15_000
    while (listed.length === 0 && Date.now() < end) {
      const recent = await cli(['recent', '--json'], { env })
      listed = (JSON.parse(recent.stdout).checks as Array<{ url: string }>).filter((c) => c.url === url)
      if (listed.length === 0) await new Promise((res) => setTimeout(res, 250))
    }
    expect(listed).toHaveLength(1)
  })

  it('during monitors run: exit 130, points at the runs of that monitor', async () => {
    const url = `${slowUrl}monitor`
    const made = await cli(['monitors', 'create', url, '--every', '1d', '--json'], { env })
    expect(made.code, made.stderr).toBe(0)
    const id = JSON.parse(made.stdout).id as string
    // the first scheduled run ends first (its requests must not be taken for this one's)
    const end = Date.now() + 20_000
    for (;;) {
      const runs = await cli(['monitors', 'runs', id, '--json'], { env })
      if (JSON.parse(runs.stdout).runs?.length > 0) break
      if (Date.now() > end) throw new Error(`the first run did not end: ${runs.stdout}`)
      await new Promise((res) => setTimeout(res, 250))
    }
    const before = hitsOn(url)
    const { proc } = spawn(['monitors', 'run', id])
    await until(() => hitsOn(url) > before, 'the run to reach the target')
    proc.kill('SIGINT')
    const r = await proc
    expect(r.exitCode, r.all).toBe(130)
    expect(r.stderr).toContain(
      `Interrupted: the server may still finish this run and charge it (1 credit); \`sitehealth monitors runs ${id}\` shows it.`,
    )
  })

  it('during test (sitehealth.yaml): exit 130 with the same warning as check', async () => {
    const file = join(home, 'sitehealth.yaml')
    const url = `${slowUrl}test`
    await writeFile(file, `monitors:\n  - ref: slow\n    url: ${url}\n`)
    const { proc } = spawn(['test', '--file', file])
    await until(() => hitsOn(url) > 0, 'the test run to reach the target')
    proc.kill('SIGINT')
    const r = await proc
    expect(r.exitCode, r.all).toBe(130)
    expect(r.stderr).toMatch(/^Interrupted: the server may still finish the check that was running/m)
  })

  it('while login waits for approval: exit 130, says nothing was saved', async () => {
    const { proc, output } = spawn(['login', '--no-browser', '--api-url', served.url])
    await until(() => /one-time code/.test(output()), 'the login code')
    proc.kill('SIGINT')
    const r = await proc
    expect(r.exitCode, r.all).toBe(130)
    expect(r.stderr).toMatch(/^Interrupted: nothing was saved here\./m)
    expect(existsSync(join(home, 'config', 'sitehealth', 'config.json'))).toBe(false)
  })
})
