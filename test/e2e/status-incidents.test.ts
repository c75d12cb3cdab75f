/**
 * Incidents on a status page end to end (docs/status-pages.md): the built CLI's `status-pages incidents
 * create|list|update|resolve|delete` against a real `serve`; the public page shows what is
 * published and never a draft.
 */
import { describe, expect, it } from 'vitest'
import { serveWithAccount } from '../helpers/e2e.js'

const acct = serveWithAccount({ args: ['--min-interval', '1', '--quiet'], user: 'si', credits: 500 })
const { api, cli } = acct

describe('status page incidents end to end', () => {
  it('posts a draft and publishes it, posts, updates, resolves and deletes with the CLI', async () => {
    const page = (
      await api('POST', '/status-pages', { slug: 'e2e-inc', title: 'Incidents', monitor_ids: [] })
    ).body
    const drafts = async () => (await api('GET', `/status-pages/${page.id}/incidents`)).body.incidents
    const publicHtml = async () => (await fetch(`${acct.served.url}/status/e2e-inc`)).text()
    const env = acct.env()
    const draft = await cli(
      [
        'status-pages',
        'incidents',
        'create',
        page.id,
        '--title',
        'Gone is down',
        '--message',
        'x',
        '--draft',
        '--json',
      ],
      { env },
    )
    expect(draft.code, draft.stderr).toBe(0)
    const draftId: string = JSON.parse(draft.stdout).id
    expect(await publicHtml()).not.toContain('Gone is down')
    const published = await cli(
      ['status-pages', 'incidents', 'update', page.id, draftId, '--publish', '--json'],
      { env },
    )
    expect(published.code, published.stderr).toBe(0)
    expect(JSON.parse(published.stdout).draft).toBe(false)
    expect(await publicHtml()).toContain('Gone is down')

    const created = await cli(
      [
        'status-pages',
        'incidents',
        'create',
        page.id,
        '--title',
        'Slow <pages>',
        '--message',
        'Looking',
        '--impact',
        'minor',
        '--json',
      ],
      { env },
    )
    expect(created.code, created.stderr).toBe(0)
    const id: string = JSON.parse(created.stdout).id
    const updated = await cli(
      [
        'status-pages',
        'incidents',
        'update',
        page.id,
        id.slice(-8),
        '--status',
        'identified',
        '--message',
        'Found it',
      ],
      { env },
    )
    expect(updated.code, updated.stderr).toBe(0)
    expect(updated.stdout).toContain('Found it')
    const resolved = await cli(['status-pages', 'incidents', 'resolve', page.id, id, '--message', 'Fixed'], {
      env,
    })
    expect(resolved.code, resolved.stderr).toBe(0)
    expect(resolved.stdout).toContain('resolved')
    const list = await cli(['status-pages', 'incidents', 'list', page.id], { env })
    expect(list.stdout).toContain('Slow <pages>')
    expect(await publicHtml()).toContain('Slow &lt;pages&gt;')
    const deleted = await cli(['status-pages', 'incidents', 'delete', page.id, id], { env })
    expect(deleted.code, deleted.stderr).toBe(0)
    expect((await drafts()).map((i: { id: string }) => i.id)).not.toContain(id)
  }, 90_000)
})
