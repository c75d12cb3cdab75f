/**
 * The status-page management pages in a browser, in-process (the DashboardStatusPages port as
 * `serve` wires it): create with the form's labels, a refused slug, edit the monitors shown, the
 * public page following each change, another user's page is 404 and its slug taken, delete with a
 * confirmation, axe on each page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { expectAccessible, haveChromium, noticeIfMissing, screenshot } from './browser.js'
import { startDashboard, type Dashboard } from './harness.js'

noticeIfMissing()

describe.runIf(haveChromium || process.env.CI)('status page management', { timeout: 120_000 }, () => {
  let d: Dashboard
  let url: string
  let signedIn: Dashboard['signedIn']

  beforeAll(async () => {
    d = await startDashboard(['mo@example.com', 'other@example.com'])
    ;({ url, signedIn } = d)
    // paused at once: these tests are about the pages, not the runs
    const mo = d.users.get('mo@example.com')!
    for (const name of ['Shop', 'Payments API']) {
      const { monitor } = await d.monitoring.service.create(mo, { url: 'http://127.0.0.1:9/', name })
      await d.monitoring.service.update(mo, monitor.id, { paused: true })
    }
  })

  afterAll(async () => d?.close())

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
