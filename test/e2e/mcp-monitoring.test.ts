/**
 * The MCP tools of monitoring depth end to end, over stdio against a real `serve`: a heartbeat
 * monitor made with service_create_monitor (no url; its push URL in the result, once, and the push
 * URL works), and maintenance windows listed, created, updated and deleted with their own tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publicApi, waitFor } from '../helpers/api.js'
import { startMcpSession, toolText, type McpSession } from '../helpers/mcp.js'
import { UNLIMITED } from '../helpers/serve.js'

let s: McpSession
const api = publicApi(
  () => s.served.url,
  () => s.key,
)
const call = (name: string, args: Record<string, unknown> = {}) => s.call(name, args)
const text = toolText

beforeAll(async () => {
  s = await startMcpSession({ serveArgs: ['--min-interval', '1', ...UNLIMITED, '--quiet'], user: 'mcpmon' })
}, 120_000)

afterAll(async () => {
  await s?.close()
})

describe('MCP monitoring tools', () => {
  it('creates a heartbeat monitor: no url, the push URL once, beats through it', async () => {
    const { tools } = await s.client.listTools()
    const create = tools.find((t) => t.name === 'service_create_monitor')!
    expect(Object.keys(create.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['type', 'url', 'interval_seconds', 'grace_seconds']),
    )
    expect(create.inputSchema.required ?? []).not.toContain('url')
    expect(create.description).toMatch(/heartbeat/)

    const made = await call('service_create_monitor', {
      type: 'heartbeat',
      name: 'nightly backup',
      interval_seconds: 60,
      grace_seconds: 30,
    })
    expect(made.isError, text(made)).toBeFalsy()
    const m = made.structuredContent as { id: string; type: string; push_url: string; grace_seconds: number }
    expect(m).toMatchObject({ type: 'heartbeat', grace_seconds: 30 })
    expect(m.push_url).toMatch(/\/api\/push\/[^/]+$/)
    expect(text(made)).toContain(m.push_url)
    expect(text(made)).toMatch(/shown only now/)
    // shown once: neither the API nor the list tool give it again
    expect((await api('GET', `/monitors/${m.id}`)).body.push_url).toBeUndefined()
    const listed = await call('service_list_monitors', { limit: 50 })
    expect(JSON.stringify(listed)).not.toContain(m.push_url)

    expect((await fetch(m.push_url, { method: 'POST' })).status).toBe(200)
    await waitFor(async () => (await api('GET', `/monitors/${m.id}`)).body.state === 'up', 10_000, 'up')

    // a url on a heartbeat and no url on an http monitor: tool errors naming the field
    const withUrl = await call('service_create_monitor', { type: 'heartbeat', url: 'https://example.com/' })
    expect(withUrl.isError).toBe(true)
    expect(text(withUrl)).toMatch(/^invalid_url: .*url/)
    const noUrl = await call('service_create_monitor', { name: 'x' })
    expect(noUrl.isError).toBe(true)
    expect(text(noUrl)).toMatch(/^invalid_url: url is required/)
    const graceOnHttp = await call('service_create_monitor', {
      url: 'https://example.com/',
      grace_seconds: 5,
    })
    expect(graceOnHttp.isError).toBe(true)
    expect(text(graceOnHttp)).toMatch(/grace_seconds/)
    expect((await api('GET', '/monitors?limit=50')).body.monitors).toHaveLength(1)
  }, 60_000)

  it('lists, creates, updates and deletes maintenance windows, as the API has them', async () => {
    const { tools } = await s.client.listTools()
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
    expect(byName.service_list_maintenance_windows.annotations).toMatchObject({ readOnlyHint: true })
    expect(byName.service_delete_maintenance_window.annotations).toMatchObject({ destructiveHint: true })
    expect(byName.service_create_maintenance_window.inputSchema.required).toEqual(['name', 'monitor_ids'])

    const empty = await call('service_list_maintenance_windows')
    expect(empty.structuredContent).toEqual({ maintenance_windows: [] })
    expect(text(empty)).toBe('No maintenance windows.')

    const weekly = await call('service_create_maintenance_window', {
      name: 'Saturday backup',
      monitor_ids: 'all',
      weekly: { days: ['sat'], start: '02:00', duration_minutes: 90, timezone: 'Europe/Berlin' },
    })
    expect(weekly.isError, text(weekly)).toBeFalsy()
    const w = weekly.structuredContent as { id: string }
    expect(w).toEqual((await api('GET', `/maintenance-windows/${w.id}`)).body)
    expect(text(weekly)).toMatch(/every sat 02:00 for 90 min \(Europe\/Berlin\), all monitors/)

    const listed = await call('service_list_maintenance_windows')
    expect(listed.structuredContent).toEqual((await api('GET', '/maintenance-windows')).body)
    expect(text(listed)).toContain(w.id)

    const backwards = await call('service_create_maintenance_window', {
      name: 'x',
      monitor_ids: 'all',
      starts_at: '2030-01-01T23:00:00Z',
      ends_at: '2030-01-01T22:00:00Z',
    })
    expect(backwards.isError).toBe(true)
    expect(text(backwards)).toMatch(/^invalid_url: .*ends_at/)
    const zone = await call('service_create_maintenance_window', {
      name: 'x',
      monitor_ids: 'all',
      weekly: { days: ['sat'], start: '02:00', duration_minutes: 60, timezone: 'Mars/Base' },
    })
    expect(zone.isError).toBe(true)

    // update: only the fields given change; weekly to one-off and back; bad input and unknown ids refused
    expect(byName.service_update_maintenance_window.inputSchema.required).toEqual(['id'])
    const renamed = await call('service_update_maintenance_window', { id: w.id, name: 'Sunday backup' })
    expect(renamed.isError, text(renamed)).toBeFalsy()
    expect(renamed.structuredContent).toEqual((await api('GET', `/maintenance-windows/${w.id}`)).body)
    expect(renamed.structuredContent).toMatchObject({
      name: 'Sunday backup',
      monitor_ids: 'all',
      weekly: { days: ['sat'], start: '02:00', duration_minutes: 90, timezone: 'Europe/Berlin' },
    })
    expect(text(renamed)).toMatch(/^Updated maintenance window "Sunday backup" every sat/)
    const once = await call('service_update_maintenance_window', {
      id: w.id,
      weekly: null,
      starts_at: '2030-03-01T22:00:00Z',
      ends_at: '2030-03-01T23:00:00Z',
    })
    expect(once.isError, text(once)).toBeFalsy()
    expect((await api('GET', `/maintenance-windows/${w.id}`)).body).toMatchObject({
      name: 'Sunday backup',
      weekly: null,
      starts_at: '2030-03-01T22:00:00Z',
      ends_at: '2030-03-01T23:00:00Z',
    })
    const reversed = await call('service_update_maintenance_window', {
      id: w.id,
      ends_at: '2030-03-01T21:00:00Z',
    })
    expect(reversed.isError).toBe(true)
    expect(text(reversed)).toMatch(/ends_at/)
    const badZone = await call('service_update_maintenance_window', {
      id: w.id,
      weekly: { days: ['sun'], start: '02:00', duration_minutes: 60, timezone: 'Mars/Base' },
      starts_at: null,
      ends_at: null,
    })
    expect(badZone.isError).toBe(true)
    expect((await api('GET', `/maintenance-windows/${w.id}`)).body).toMatchObject({
      weekly: null,
      ends_at: '2030-03-01T23:00:00Z',
    })
    const unknown = await call('service_update_maintenance_window', {
      id: '0199a1b2-0000-7000-8000-000000000001',
      name: 'x',
    })
    expect(unknown.isError).toBe(true)
    expect(text(unknown)).toMatch(/^not_found: /)

    const deleted = await call('service_delete_maintenance_window', { id: w.id })
    expect(deleted.isError, text(deleted)).toBeFalsy()
    expect(deleted.structuredContent).toEqual({ deleted: true, id: w.id })
    expect((await api('GET', `/maintenance-windows/${w.id}`)).status).toBe(404)
    const again = await call('service_delete_maintenance_window', { id: w.id })
    expect(again.isError).toBe(true)
    expect(text(again)).toMatch(/^not_found: /)
  }, 60_000)
})
