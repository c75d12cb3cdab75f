/**
 * The MCP status-page incident tools end to end (docs/status-pages.md), over stdio against a real
 * `serve`: post an incident as a draft, publish it with an update, resolve it, list them; an
 * unknown page is a not_found tool error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publicApi } from '../helpers/api.js'
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
  s = await startMcpSession({ serveArgs: [...UNLIMITED, '--quiet'], user: 'mcpinc' })
}, 120_000)

afterAll(async () => {
  await s?.close()
})

describe('MCP status-page incident tools', () => {
  it('posts a draft, publishes it with an update, resolves it and lists it', async () => {
    const page = (await api('POST', '/status-pages', { slug: 'mcp-inc', title: 'MCP', monitor_ids: [] })).body
    const created = await call('service_create_status_incident', {
      status_page_id: page.id,
      title: 'Search is slow',
      message: 'Looking into it.',
      impact: 'minor',
      draft: true,
    })
    expect(created.isError, text(created)).toBeFalsy()
    const inc = created.structuredContent as { id: string; draft: boolean }
    expect(inc.draft).toBe(true)
    expect(await (await fetch(`${s.served.url}/status/mcp-inc`)).text()).not.toContain('Search is slow')

    const updated = await call('service_update_status_incident', {
      status_page_id: page.id,
      incident_id: inc.id,
      publish: true,
      status: 'identified',
      message: 'An index rebuild.',
    })
    expect(updated.structuredContent).toMatchObject({ draft: false, status: 'identified' })
    expect(await (await fetch(`${s.served.url}/status/mcp-inc`)).text()).toContain('Search is slow')

    const resolved = await call('service_resolve_status_incident', {
      status_page_id: page.id,
      incident_id: inc.id,
      message: 'Rebuilt.',
    })
    expect(resolved.structuredContent).toMatchObject({ status: 'resolved' })
    expect(text(resolved)).toContain('resolved')

    const listed = await call('service_list_status_incidents', { status_page_id: page.id })
    const list = (listed.structuredContent as { incidents: { updates: unknown[] }[] }).incidents
    expect(list).toHaveLength(1)
    expect(list[0].updates).toHaveLength(3)

    const half = await call('service_update_status_incident', {
      status_page_id: page.id,
      incident_id: inc.id,
      message: 'no status',
    })
    expect(half.isError).toBe(true)
    const unknown = await call('service_list_status_incidents', { status_page_id: inc.id })
    expect(unknown.isError).toBe(true)
    expect(text(unknown)).toMatch(/^not_found:/)
  })
})
