/**
 * A monitor's `ref` (docs/decisions.md#monitors-as-code) through the API and the CLI: set at create and patch, unique
 * per user (a clash is 409 `conflict` and changes nothing), removed with null, shown in every view.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Served } from '../helpers/serve.js'
import { cliRunner } from '../helpers/cli.js'
import { callApi } from '../helpers/api.js'

let served: Served
let home: string
const { cli } = cliRunner(() => home)

/** The public API with `key`. */
const api = (key: string, method: string, path: string, body?: unknown) =>
  callApi(served.url, key, method, path, body)

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-ref-home-'))
  served = await startServe({ args: ['--quiet'] })
}, 60_000)

afterAll(async () => {
  await served?.stop()
  await rm(home, { recursive: true, force: true })
})

describe('monitor ref', () => {
  it('is set at create, unique per user (409 conflict), changed and removed by patch', async () => {
    const { key } = await served.createKey({ user: 'ref-a' })
    const { key: other } = await served.createKey({ user: 'ref-b' })
    const a = await api(key, 'POST', '/monitors', { url: 'http://127.0.0.1:9/a', ref: 'api' })
    expect(a.status).toBe(201)
    expect(a.body.ref).toBe('api')
    const plain = await api(key, 'POST', '/monitors', { url: 'http://127.0.0.1:9/b' })
    expect(plain.body.ref).toBeNull()

    const clash = await api(key, 'POST', '/monitors', { url: 'http://127.0.0.1:9/c', ref: 'api' })
    expect(clash.status).toBe(409)
    expect(clash.body.error.code).toBe('conflict')
    expect(clash.body.error.message).toContain('"api"')
    expect((await api(key, 'GET', '/monitors?limit=50')).body.monitors).toHaveLength(2)
    // another user may use the same ref
    expect((await api(other, 'POST', '/monitors', { url: 'http://127.0.0.1:9/a', ref: 'api' })).status).toBe(
      201,
    )

    const patchClash = await api(key, 'PATCH', `/monitors/${plain.body.id}`, { ref: 'api', name: 'x' })
    expect(patchClash.status).toBe(409)
    expect((await api(key, 'GET', `/monitors/${plain.body.id}`)).body).toMatchObject({ ref: null })
    expect((await api(key, 'PATCH', `/monitors/${a.body.id}`, { ref: 'api-v2' })).body.ref).toBe('api-v2')
    expect((await api(key, 'PATCH', `/monitors/${plain.body.id}`, { ref: 'api' })).body.ref).toBe('api')
    expect((await api(key, 'PATCH', `/monitors/${plain.body.id}`, { ref: null })).body.ref).toBeNull()

    const bad = await api(key, 'POST', '/monitors', { url: 'http://127.0.0.1:9/d', ref: 'no spaces' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('invalid_url')
    expect(bad.body.error.message).toContain('ref')
  })

  it('is shown by monitors list, get and create in the CLI, and in --json', async () => {
    const { key } = await served.createKey({ user: 'ref-cli' })
    const env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
    const made = await cli(['monitors', 'create', 'http://127.0.0.1:9/x', '--ref', 'shop-home', '--json'], {
      env,
    })
    expect(made.code).toBe(0)
    const m = JSON.parse(made.stdout)
    expect(m.ref).toBe('shop-home')
    const list = await cli(['monitors', 'list'], { env })
    expect(list.stderr).toBe('')
    // into a pipe: tab-separated, the ref after the columns it had before (the tags follow it)
    expect(list.stdout.trim().split('\n')[0].split('\t').at(-2)).toBe('shop-home')
    const get = await cli(['monitors', 'get', m.id], { env })
    expect(get.stdout).toMatch(/ref\s+shop-home/)
    const json = JSON.parse((await cli(['monitors', 'list', '--json'], { env })).stdout)
    expect(json.monitors[0].ref).toBe('shop-home')
  })
})
