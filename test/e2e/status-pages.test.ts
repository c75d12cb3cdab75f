/**
 * Status pages end to end: the built CLI's `status-pages create|list|get|delete` against a real
 * `serve`, monitors of two local sites (one up, one refusing connections), and the public page,
 * its JSON and a badge read with no credentials.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../helpers/api.js'
import { serveWithAccount } from '../helpers/e2e.js'

let site: Server
const acct = serveWithAccount({ args: ['--min-interval', '1', '--quiet'], user: 'sp', credits: 500 })
const { api, cli } = acct

beforeAll(async () => {
  site = createServer((_q, s) =>
    s.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>ok'),
  )
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
}, 60_000)

afterAll(async () => {
  await new Promise((r) => site?.close(r))
})

describe('status pages end to end', () => {
  it('creates a page with the CLI, prints its public URL, and anyone can read it', async () => {
    const port = (site.address() as AddressInfo).port
    const up = (
      await api('POST', '/monitors', { url: `http://127.0.0.1:${port}/`, name: 'Web', interval_seconds: 2 })
    ).body
    const down = (
      await api('POST', '/monitors', {
        url: 'http://127.0.0.1:9/',
        name: 'Gone',
        interval_seconds: 1,
        alerts: { down_after: 1 },
      })
    ).body
    await waitFor(
      async () =>
        // availability first (docs/decisions.md#monitoring-depth): a plain-http site without headers is up
        (await api('GET', `/monitors/${up.id}`)).body.state === 'up' &&
        (await api('GET', `/monitors/${down.id}`)).body.state === 'down',
      30_000,
      'one monitor up and one down',
    )
    const env = acct.env()
    const created = await cli(
      [
        'status-pages',
        'create',
        '--slug',
        'e2e-shop',
        '--title',
        'Shop status',
        '--monitor',
        `${up.id},${down.id}`,
      ],
      { env },
    )
    expect(created.code, created.stderr).toBe(0)
    expect(created.stdout).toContain(`${acct.served.url}/status/e2e-shop`)

    const listed = await cli(['status-pages', 'list', '--json'], { env })
    const list = JSON.parse(listed.stdout)
    expect(list.status_pages).toHaveLength(1)
    const id = list.status_pages[0].id
    const got = await cli(['status-pages', 'get', id], { env })
    expect(got.stdout).toContain(`${acct.served.url}/status/e2e-shop`)

    const page = await fetch(`${acct.served.url}/status/e2e-shop`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Partial outage')
    expect(html).not.toContain('127.0.0.1')
    const json = await (await fetch(`${acct.served.url}/status/e2e-shop.json`)).json()
    expect(json.monitors.map((m: any) => m.name)).toEqual(['Web', 'Gone'])
    expect(json.monitors[1].state).toBe('down')
    const badge = await fetch(`${acct.served.url}/status/e2e-shop/badges/${down.id}/status.svg`)
    expect(badge.status).toBe(200)
    expect(await badge.text()).toContain('<title>Gone: down</title>')

    const clash = await cli(['status-pages', 'create', '--slug', 'e2e-shop', '--title', 'Again', '--json'], {
      env,
    })
    expect(clash.code).not.toBe(0)
    expect(JSON.parse(clash.stdout).error.code).toBe('conflict')

    const deleted = await cli(['status-pages', 'delete', id], { env })
    expect(deleted.code, deleted.stderr).toBe(0)
    expect((await fetch(`${acct.served.url}/status/e2e-shop`)).status).toBe(404)
    const missing = await cli(['status-pages', 'get', id], { env })
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toMatch(/status-pages list/)
  }, 90_000)
})
