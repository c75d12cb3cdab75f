/**
 * The monitor pages in a browser, in-process, over the real monitors service and scheduler (the
 * DashboardMonitors port as `serve` wires it) watching a local site: list, create, the state
 * after the first scheduled run, the history chart and its table, a real monitor.down event,
 * pause/resume, another user's monitor is 404, axe on each page.
 */
import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Monitoring } from '../../src/monitors/index.js'
import { expectAccessible, haveChromium, noticeIfMissing, screenshot } from './browser.js'
import { startDashboard, type Dashboard } from './harness.js'

noticeIfMissing()

/** A local site that answers, or hangs up on every connection while `down`. */
async function startSite() {
  const state = { down: false }
  const server = createServer((req, res) => {
    if (state.down) return void req.socket.destroy()
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><html lang="en"><title>Shop</title><p>Welcome</p></html>')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
    close: () => new Promise((r) => server.close(r)),
  }
}

describe.runIf(haveChromium || process.env.CI)('monitor pages', { timeout: 120_000 }, () => {
  let d: Dashboard
  let url: string
  let site: Awaited<ReturnType<typeof startSite>>
  let monitoring: Monitoring
  let signedIn: Dashboard['signedIn']

  beforeAll(async () => {
    site = await startSite()
    d = await startDashboard(['mo@example.com', 'other@example.com'])
    ;({ url, monitoring, signedIn } = d)
  })

  afterAll(async () => {
    await d?.close()
    await site?.close()
  })

  it('creates a monitor, shows its state, chart, runs and events, pauses and resumes it', async () => {
    const page = await signedIn('mo@example.com')
    await page.getByRole('link', { name: 'Monitors', exact: true }).click()
    await expectAccessible(page, 'monitors (empty)')
    await page.getByLabel('URL', { exact: true }).fill('ftp://nope.example')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    expect(await page.getByRole('alert').textContent()).toMatch(/http/)
    await page.getByLabel('URL', { exact: true }).fill(site.url)
    await page.getByLabel('Name', { exact: true }).first().fill('Shop')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor()
    const monitorUrl = page.url()
    const id = monitorUrl.split('/').pop()!
    // the scheduler runs a new monitor at once: its state comes from a real check of the site
    const badge = async () => (await page.locator('.badge').first().textContent())?.trim()
    for (let i = 0; i < 100 && (await badge()) === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100))
      await page.reload()
    }
    expect(await badge()).toMatch(/^(up|degraded)$/)
    // the site goes away: two failed runs (down_after 2) make it down and raise monitor.down
    site.state.down = true
    for (let i = 0; i < 2; i++) {
      const m = await monitoring.service.monitors.getMonitorById(id)
      expect((await monitoring.service.run(m!, 'manual')).kind).toBe('failed')
    }
    await page.reload()
    expect(await badge()).toBe('down')
    expect(await page.getByText('monitor.down').count()).toBe(1)
    // uPlot drew the history; the table holds the saved run's response time
    await page.locator('#history-chart canvas').waitFor()
    expect(
      await page.locator('table.runs tbody td:nth-child(4)', { hasText: /^\d+$/ }).count(),
    ).toBeGreaterThan(0)
    await expectAccessible(page, 'monitor page')
    await screenshot(page, 'monitor')
    // at 390 px the runs table keeps every column on screen (screenshot() checks the page fits)
    await page.setViewportSize({ width: 390, height: 900 })
    const table = await page.locator('table.runs').boundingBox()
    expect(table!.x + table!.width).toBeLessThanOrEqual(390)
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByRole('button', { name: 'Pause' }).click()
    await page.getByRole('button', { name: 'Resume' }).waitFor()
    expect(await badge()).toBe('paused')
    await page.getByRole('button', { name: 'Resume' }).click()
    await page.getByRole('button', { name: 'Pause' }).waitFor()
    await page.getByRole('link', { name: 'Monitors', exact: true }).click()
    expect(await page.getByRole('row', { name: /Shop/ }).textContent()).not.toContain('paused')
    await expectAccessible(page, 'monitors list')
    await screenshot(page, 'monitors')
    await page.getByRole('link', { name: 'Overview', exact: true }).click()
    await page.getByRole('link', { name: 'Shop' }).waitFor()

    const other = await signedIn('other@example.com')
    const res = await other.goto(monitorUrl)
    expect(res?.status()).toBe(404)
  })

  it('shows failures before down, down since and incidents, refreshes itself, and edits, runs now and deletes', async () => {
    site.state.down = false
    const page = await signedIn('mo@example.com')
    await page.clock.install()
    await page.goto(`${url}/monitors`)
    await page.getByLabel('URL', { exact: true }).fill(site.url + 'blog')
    await page.getByLabel('Name', { exact: true }).first().fill('Blog')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    await page.getByRole('heading', { name: 'Blog', level: 1 }).waitFor()
    const id = page.url().split('/').pop()!
    const badge = async () => (await page.locator('.badge').first().textContent())?.trim()
    for (let i = 0; i < 100 && (await badge()) === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100))
      await page.reload()
    }
    expect(await badge()).toBe('up')
    const run = async () =>
      monitoring.service.run((await monitoring.service.monitors.getMonitorById(id))!, 'manual')

    // one failure of two: still up, and the page says how close it is; the last run is the failure
    site.state.down = true
    await run()
    await page.reload()
    expect(await page.getByText('1 of 2 failures').count()).toBe(1)
    expect(await page.locator('section', { hasText: 'Last run' }).textContent()).toContain('failed')
    // the second failure shows up without a reload: the page refreshes its live parts
    await run()
    await page.clock.runFor(16_000)
    await page.locator('.badge.st-down').first().waitFor()
    // the live parts are swapped one by one: wait for each before counting (a loaded machine saw 0)
    await page
      .getByText(/Down since/)
      .first()
      .waitFor()
    await page
      .getByText(/and still down/)
      .first()
      .waitFor()
    expect(await page.getByText(/Down since/).count()).toBe(1)
    expect(await page.getByText(/and still down/).count()).toBe(1)
    await expectAccessible(page, 'monitor page, down')

    // back up: the incident has an end and a duration
    site.state.down = false
    await run()
    await page.reload()
    expect(await badge()).toBe('up')
    expect(await page.locator('li', { hasText: /Down from [\s\S]* to [\s\S]*\(\d+ s\)/ }).count()).toBe(1)

    // the list: the bar of recent runs says in words how many failed
    await page.getByRole('link', { name: 'Monitors', exact: true }).click()
    const bar = page.getByRole('row', { name: /Blog/ }).locator('ol.runbar')
    expect(await bar.getAttribute('aria-label')).toMatch(/^Last \d+ runs of Blog, oldest first: 2 failed$/)
    expect(await bar.locator('li.fail').count()).toBe(2)

    // edit: a bad assertion is refused naming it, a good one is kept
    await page.goto(`${url}/monitors/${id}/edit`)
    await expectAccessible(page, 'monitor edit')
    await page.getByLabel('Name').fill('Blog 2')
    await page.getByLabel('Assertions').fill('status_code equlas 200')
    await page.getByRole('button', { name: 'Save changes' }).click()
    expect(await page.getByRole('alert').textContent()).toMatch(/^Assertion 1: /)
    await page.getByLabel('Assertions').fill('status_code equals 200')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('heading', { name: 'Blog 2', level: 1 }).waitFor()
    await page.goto(`${url}/monitors/${id}/edit`)
    expect(await page.getByLabel('Assertions').inputValue()).toBe('status_code equals 200')

    // a webhook channel: its secret shown once, then only its masked target; then removed
    await page.getByLabel('Type').selectOption('webhook')
    await page.getByLabel('URL or email address').fill('http://127.0.0.1:9/hook')
    await page.getByRole('button', { name: 'Save channels' }).click()
    const secret = await page.getByLabel('Signing secret').inputValue()
    expect(secret.length).toBeGreaterThan(16)
    await page.goto(`${url}/monitors/${id}`)
    expect(await page.getByLabel('Signing secret').count()).toBe(0)
    expect(await page.content()).not.toContain(secret)
    await page.goto(`${url}/monitors/${id}/edit`)
    // the same channel again is refused, not doubled
    await page.getByLabel('Type').selectOption('webhook')
    await page.getByLabel('URL or email address').fill('http://127.0.0.1:9/hook')
    await page.getByRole('button', { name: 'Save channels' }).click()
    expect(await page.getByRole('alert').textContent()).toMatch(/already sends its alerts to that channel/)
    expect(await page.getByLabel(/webhook: http/).count()).toBe(1)
    await page.getByLabel(/webhook: http/).check()
    await page.getByRole('button', { name: 'Save channels' }).click()
    await page.goto(`${url}/monitors/${id}/edit`)
    expect(await page.getByText('No alert channels').count()).toBe(1)

    // run now: one more run in the table
    await page.goto(`${url}/monitors/${id}`)
    const rows = await page.locator('table.runs tbody tr').count()
    await page.getByRole('button', { name: 'Run now' }).click()
    await page.getByRole('heading', { name: 'Blog 2', level: 1 }).waitFor()
    expect(await page.locator('table.runs tbody tr').count()).toBe(rows + 1)

    // a maintenance window that covers it shows on its page
    const owner = (await monitoring.service.monitors.getMonitorById(id))!.user_id
    const start = Date.now() + 3600_000
    await monitoring.service.maintenance.create(owner, {
      name: 'Database upgrade',
      monitor_ids: [id],
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + 3600_000).toISOString(),
    })
    await page.reload()
    expect(await page.locator('li', { hasText: 'Database upgrade' }).textContent()).toMatch(/\(scheduled\)/)

    // delete, after a confirmation
    await page.getByRole('link', { name: 'Delete' }).click()
    await expectAccessible(page, 'monitor delete')
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor()
    expect(await page.getByRole('row', { name: /Blog 2/ }).count()).toBe(0)
    expect((await page.goto(`${url}/monitors/${id}`))?.status()).toBe(404)
  })
})
