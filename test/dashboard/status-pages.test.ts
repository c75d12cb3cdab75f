/**
 * The status-page management pages in a browser, in-process (the DashboardStatusPages port as
 * `serve` wires it): create with the form's labels, a refused slug, edit the monitors shown, the
 * public page following each change, another user's page is 404 and its slug taken, delete with a
 * confirmation, axe on each page.
 */
import { createServer, type Server } from 'node:http'
import { toNodeHandler } from 'h3/node'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Accounts } from '../../src/accounts/service.js'
import { CheckCapacity, DEFAULT_CAPACITY } from '../../src/capacity/index.js'
import { startMonitoring, type Monitoring } from '../../src/monitors/index.js'
import { composeApp, dashboardMonitors, type ComposeOptions } from '../../src/serve/index.js'
import { DEFAULT_LIMITS } from '../../src/server/context.js'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import { removeDir, tempDir } from '../store/helpers.js'
import { expectAccessible, haveChromium, launch, noticeIfMissing, screenshot } from './browser.js'

noticeIfMissing()
const PW = 'correct horse battery'

describe.runIf(haveChromium || process.env.CI)('status page management', { timeout: 120_000 }, () => {
  let browser: Browser
  let store: LowdbStore
  let dir: string
  let server: Server
  let url: string
  let monitoring: Monitoring

  beforeAll(async () => {
    dir = await tempDir()
    store = await openLowdbStore(dir)
    const accounts = new Accounts({
      store,
      accounts: store.accounts,
      signup: 'open',
      initialCredits: 5,
      passwordCost: { logN: 12, r: 8, p: 1 },
    })
    const mo = (await accounts.signUp('mo@example.com', PW))!
    await accounts.signUp('other@example.com', PW)
    const capacity = new CheckCapacity(DEFAULT_CAPACITY)
    monitoring = await startMonitoring({
      store,
      monitors: store.monitors!,
      secretKey: 'test-secret-key-for-the-dashboard',
      allowPrivateTargets: true,
      checkTimeoutMs: 5000,
      capacity,
      scheduler: { catchUpMs: 0 },
    })
    // paused at once: these tests are about the pages, not the runs
    for (const name of ['Shop', 'Payments API']) {
      const { monitor } = await monitoring.service.create(mo.user_id, { url: 'http://127.0.0.1:9/', name })
      await monitoring.service.update(mo.user_id, monitor.id, { paused: true })
    }
    const opts: ComposeOptions = {
      store,
      initialCredits: 5,
      allowPrivateTargets: true,
      adminToken: 'x'.repeat(40),
      limits: DEFAULT_LIMITS,
      checkTimeoutMs: 5000,
      accounts,
      capacity,
      monitoring,
      dashboardMonitors: dashboardMonitors(monitoring.service),
    }
    const { app } = composeApp(opts)
    server = createServer(toNodeHandler(app))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    opts.publicUrl = url
    browser = await launch()
  })

  afterAll(async () => {
    await browser?.close()
    await new Promise((r) => server?.close(r))
    await monitoring?.close()
    await store?.close()
    await removeDir(dir)
  })

  async function signedIn(email: string) {
    const page = await (await browser.newContext()).newPage()
    await page.goto(url)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PW)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
    return page
  }
  const publicPage = async (slug: string) => {
    const res = await fetch(`${url}/status/${slug}`)
    return { status: res.status, text: await res.text() }
  }

  it('creates, edits and deletes a status page, and the public page follows', async () => {
    const page = await signedIn('mo@example.com')
    await page.getByRole('link', { name: 'Status pages', exact: true }).click()
    expect(await page.getByText('No status pages yet.').count()).toBe(1)
    await expectAccessible(page, 'status pages (empty)')
    // a reserved slug: the form again, with the error and what was typed
    await page.getByLabel('Slug').fill('status')
    await page.getByLabel('Title').fill('Acme status')
    await page.getByRole('button', { name: 'Create status page' }).click()
    expect(await page.getByRole('alert').textContent()).toMatch(/reserved/)
    expect(await page.getByLabel('Title').inputValue()).toBe('Acme status')
    await page.getByLabel('Slug').fill('acme')
    await page.getByLabel('Shop').check()
    await page.getByRole('button', { name: 'Create status page' }).click()
    await page.getByRole('heading', { name: 'Acme status', level: 1 }).waitFor()
    expect(await page.getByRole('link', { name: `${url}/status/acme` }).count()).toBe(1)
    await expectAccessible(page, 'status page edit')
    let pub = await publicPage('acme')
    expect(pub.status).toBe(200)
    expect(pub.text).toContain('Shop')
    expect(pub.text).not.toContain('Payments API')

    await page.getByLabel('Payments API').check()
    await page.getByLabel('Title').fill('Acme services')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('heading', { name: 'Acme services', level: 1 }).waitFor()
    pub = await publicPage('acme')
    expect(pub.text).toContain('Payments API')
    expect(pub.text).toContain('Acme services')
    const editUrl = page.url()

    const other = await signedIn('other@example.com')
    expect((await other.goto(editUrl))?.status()).toBe(404)
    await other.goto(`${url}/status-pages`)
    expect(await other.getByText('No status pages yet.').count()).toBe(1)
    await other.getByLabel('Slug').fill('acme')
    await other.getByLabel('Title').fill('Mine')
    await other.getByRole('button', { name: 'Create status page' }).click()
    expect(await other.getByRole('alert').textContent()).toMatch(/taken/)

    await page.getByRole('link', { name: 'Status pages', exact: true }).click()
    await screenshot(page, 'status-pages')
    await page.getByRole('link', { name: 'Acme services' }).click()
    await page.getByRole('link', { name: 'Delete this status page' }).click()
    await expectAccessible(page, 'delete confirmation')
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No status pages yet.').waitFor()
    expect((await publicPage('acme')).status).toBe(404)
  })
})
