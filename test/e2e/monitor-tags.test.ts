/**
 * A monitor's tags (docs/monitoring.md#tags) through the API, the CLI and sitehealth.yaml: set at
 * create and patch, kept once each and sorted, refused when malformed (400 naming the field),
 * filtered with `?tag=` (equal, or a bare name for any value) and `monitors list --tag`.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Served } from '../helpers/serve.js'
import { cliRunner } from '../helpers/cli.js'
import { callApi } from '../helpers/api.js'

let served: Served
let home: string
const { cli } = cliRunner(() => home)

const api = (key: string, method: string, path: string, body?: unknown) =>
  callApi(served.url, key, method, path, body)

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-tags-home-'))
  served = await startServe({ args: ['--quiet', '--rate-limit', '1000'] })
}, 60_000)

afterAll(async () => {
  await served?.stop()
  await rm(home, { recursive: true, force: true })
})

describe('monitor tags', () => {
  it('are set at create and patch, refused when malformed, and filter the list', async () => {
    const { key } = await served.createKey({ user: 'tags-api' })
    const ids = async (query: string) =>
      (await api(key, 'GET', `/monitors?limit=50${query}`)).body.monitors.map((m: any) => m.name)
    const prod = await api(key, 'POST', '/monitors', {
      url: 'http://127.0.0.1:9/a',
      name: 'prod',
      tags: ['team:web', 'env:prod', 'env:prod'],
    })
    expect(prod.status).toBe(201)
    expect(prod.body.tags).toEqual(['env:prod', 'team:web'])
    await api(key, 'POST', '/monitors', {
      url: 'http://127.0.0.1:9/b',
      name: 'staging',
      tags: ['env:staging'],
    })
    const beat = await api(key, 'POST', '/monitors', { type: 'heartbeat', name: 'beat', tags: ['critical'] })
    expect(beat.body.tags).toEqual(['critical'])
    const plain = await api(key, 'POST', '/monitors', { url: 'http://127.0.0.1:9/c', name: 'plain' })
    expect(plain.body.tags).toEqual([])

    expect(await ids('&tag=env:prod')).toEqual(['prod'])
    expect(await ids('&tag=env')).toEqual(['staging', 'prod'])
    expect(await ids('&tag=env&tag=team:web')).toEqual(['prod'])
    expect(await ids('&tag=critical')).toEqual(['beat'])
    expect(await ids('')).toHaveLength(4)

    for (const tags of [['has space'], ['a,b'], ['-lead'], Array.from({ length: 21 }, (_, i) => `t${i}`)]) {
      const bad = await api(key, 'POST', '/monitors', { url: 'http://127.0.0.1:9/d', tags })
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toContain('tags')
    }
    const badQuery = await api(key, 'GET', '/monitors?tag=has%20space')
    expect(badQuery.status).toBe(400)
    expect(badQuery.body.error.message).toContain('(tag)')
    expect(await ids('')).toHaveLength(4)

    const patched = await api(key, 'PATCH', `/monitors/${plain.body.id}`, { tags: ['env:prod'] })
    expect(patched.body.tags).toEqual(['env:prod'])
    expect(await ids('&tag=env:prod')).toEqual(['plain', 'prod'])
    expect((await api(key, 'PATCH', `/monitors/${plain.body.id}`, { tags: [] })).body.tags).toEqual([])
    const badPatch = await api(key, 'PATCH', `/monitors/${plain.body.id}`, { tags: ['x y'] })
    expect(badPatch.status).toBe(400)
    expect(badPatch.body.error.message).toContain('tags')
  })

  it('are given by monitors create --tag, shown by get and list, and filter list --tag', async () => {
    const { key } = await served.createKey({ user: 'tags-cli' })
    const env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
    const made = await cli(
      ['monitors', 'create', 'http://127.0.0.1:9/x', '--tag', 'env:prod', '--tag', 'team:web', '--json'],
      { env },
    )
    expect(made.code).toBe(0)
    const m = JSON.parse(made.stdout)
    expect(m.tags).toEqual(['env:prod', 'team:web'])
    await cli(['monitors', 'create', 'http://127.0.0.1:9/y', '--name', 'other'], { env })
    const get = await cli(['monitors', 'get', m.id], { env })
    expect(get.stdout).toMatch(/tags\s+env:prod team:web/)
    const list = await cli(['monitors', 'list', '--tag', 'env'], { env })
    expect(list.stderr).toBe('')
    const rows = list.stdout.trim().split('\n')
    expect(rows).toHaveLength(1)
    // into a pipe: tab-separated, the tags last
    expect(rows[0].split('\t').at(-1)).toBe('env:prod,team:web')
    const none = await cli(['monitors', 'list', '--tag', 'env:staging'], { env })
    expect(none.stdout).toContain('No monitors with tag env:staging')
    const bad = await cli(['monitors', 'create', 'http://127.0.0.1:9/z', '--tag', 'no spaces'], { env })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--tag')
    expect(JSON.parse((await cli(['monitors', 'list', '--json'], { env })).stdout).monitors).toHaveLength(2)
  })

  it('are deployed from sitehealth.yaml, planned as a change, and pulled back', async () => {
    const { key } = await served.createKey({ user: 'tags-yaml' })
    const env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
    const f = join(home, 'tags.yaml')
    const file = (tags: string) => `monitors:
  - ref: home
    url: http://127.0.0.1:9/home
    tags: ${tags}
  - ref: job
    type: heartbeat
    tags: [critical]
`
    await writeFile(f, file('[team:web, env:prod]'))
    expect((await cli(['deploy', '--file', f, '--yes'], { env })).code).toBe(0)
    const monitors = (await api(key, 'GET', '/monitors?tag=env:prod')).body.monitors
    expect(monitors.map((m: any) => [m.ref, m.tags])).toEqual([['home', ['env:prod', 'team:web']]])
    // the same tags in another order are no change
    await writeFile(f, file('[env:prod, team:web]'))
    expect((await cli(['deploy', '--file', f], { env })).stdout.trim()).toBe('No changes.')
    await writeFile(f, file('[env:staging]'))
    const edit = await cli(['deploy', '--file', f, '--yes'], { env })
    expect(edit.stdout).toContain('tags: ["env:prod","team:web"] → ["env:staging"]')
    await writeFile(f, file('[bad tag]'))
    const bad = await cli(['deploy', '--file', f, '--yes'], { env })
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('tags')

    const pulled = join(home, 'pulled.yaml')
    expect((await cli(['pull', '--file', pulled], { env })).code).toBe(0)
    const text = await readFile(pulled, 'utf8')
    expect(text).toContain('env:staging')
    expect(text).toContain('critical')
    expect((await cli(['deploy', '--file', pulled], { env })).stdout.trim()).toBe('No changes.')
  })
})
