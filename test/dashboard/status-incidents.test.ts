/**
 * A status page's incidents and subscribers on its dashboard screen, in a browser, in-process (the
 * services as `serve` wires them, subscribers on): post an incident with the form's labels, a
 * refused update, updates and an edit, a draft published and one discarded, open incidents listed
 * first with drafts marked, delete with a confirmation, the public page following each change and
 * every typed text escaped; the subscribers' counts, their pages and the remove button (its POST
 * refused without the CSRF token); another user's incident is 404; axe on each new screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'

import type { SubscriberRecord } from '../../src/store/status-subscribers.js'
import { expectAccessible, haveChromium, noticeIfMissing, screenshot } from './browser.js'
import { startDashboard, type Dashboard } from './harness.js'

noticeIfMissing()

const HOSTILE = '<img src=x onerror=alert(1)> Checkout errors'

describe.runIf(haveChromium || process.env.CI)(
  'status page incidents and subscribers',
  { timeout: 180_000 },
  () => {
    let d: Dashboard
    let url: string
    let page: Page
    let pageUrl: string

    beforeAll(async () => {
      d = await startDashboard(['mo@example.com', 'other@example.com'], {
        subscribers: { secretKey: 'test-secret-key-for-the-subscribers' },
      })
      url = d.url
      const mo = d.users.get('mo@example.com')!
      for (const name of ['Shop', 'Payments API']) {
        const { monitor } = await d.monitoring.service.create(mo, { url: 'http://127.0.0.1:9/', name })
        await d.monitoring.service.update(mo, monitor.id, { paused: true })
      }
      page = await d.signedIn('mo@example.com')
      await page.goto(`${url}/status-pages`)
      await page.getByLabel('Slug').fill('acme')
      await page.getByLabel('Title').fill('Acme status')
      await page.getByLabel('Shop').check()
      await page.getByLabel('Payments API').check()
      await page.getByLabel('Open a draft incident when one of these monitors goes down').check()
      await page.getByRole('button', { name: 'Create status page' }).click()
      await page.getByRole('heading', { name: 'Acme status', level: 1 }).waitFor()
      pageUrl = page.url()
    })

    afterAll(async () => d?.close())

    const publicPage = async () => (await fetch(`${url}/status/acme`)).text()
    const rows = (p: Page) => p.locator('section[aria-labelledby="incidents"] tbody tr')

    const postIncident = async (title: string, o: { draft?: boolean } = {}) => {
      await page.goto(pageUrl)
      await page.getByRole('link', { name: 'Post an incident' }).click()
      await page.getByLabel('Title').fill(title)
      await page.getByLabel('Message').fill(`${title}: we are looking into it`)
      if (o.draft) await page.getByLabel(/Save as a draft/).check()
      await page.getByRole('button', { name: 'Post incident' }).click()
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      return page.url()
    }

    it('posts an incident, its updates and an edit; the public page follows, every text escaped', async () => {
      expect(await page.getByText('No incidents yet.').count()).toBe(1)
      expect(
        await page.getByLabel('Open a draft incident when one of these monitors goes down').isChecked(),
      ).toBe(true)
      await page.getByRole('link', { name: 'Post an incident' }).click()
      await expectAccessible(page, 'new incident')
      // refused by the schema (the message is only spaces): the form again, with what was typed
      await page.getByLabel('Title').fill(HOSTILE)
      await page.getByLabel('Message').fill('   ')
      await page.getByLabel('Impact').selectOption('major')
      await page.getByLabel('Shop').check()
      await page.getByRole('button', { name: 'Post incident' }).click()
      expect(await page.getByRole('alert').textContent()).toMatch(/message/)
      expect(await page.getByLabel('Title').inputValue()).toBe(HOSTILE)
      expect(await page.getByLabel('Shop').isChecked()).toBe(true)
      await page.getByLabel('Message').fill('Payments fail\nsince 10:00 <b>UTC</b>')
      await page.getByRole('button', { name: 'Post incident' }).click()
      await page.getByRole('heading', { name: HOSTILE, level: 1 }).waitFor()
      await expectAccessible(page, 'incident')
      expect(await page.locator('p.message').first().textContent()).toBe(
        'Payments fail\nsince 10:00 <b>UTC</b>',
      )
      let pub = await publicPage()
      expect(pub).toContain('&lt;img src=x onerror=alert(1)&gt; Checkout errors')
      expect(pub).not.toContain('<img src=x')
      expect(pub).not.toContain('<b>UTC')

      // an update refused, then posted: newest first
      await page.getByLabel('Update', { exact: true }).fill('  ')
      await page.getByRole('button', { name: 'Post update' }).click()
      expect(await page.getByRole('alert').textContent()).toMatch(/message/)
      await page.getByLabel('Status').first().selectOption('identified')
      await page.getByLabel('Update', { exact: true }).fill('A bad deploy')
      await page.getByRole('button', { name: 'Post update' }).click()
      await page.locator('ol.updates li').nth(1).waitFor()
      expect(await page.locator('ol.updates li').first().textContent()).toMatch(/Identified.*A bad deploy/s)
      expect(await publicPage()).toContain('A bad deploy')

      await page.getByLabel('Title').fill('Checkout errors')
      await page.getByLabel('Impact').selectOption('critical')
      await page.getByLabel('Payments API').check()
      await page.getByRole('button', { name: 'Save changes' }).click()
      await page.getByRole('heading', { name: 'Checkout errors', level: 1 }).waitFor()
      expect(await page.getByText('Critical impact').count()).toBeGreaterThan(0)
      pub = await publicPage()
      expect(pub).toContain('Critical impact')
      expect(pub).not.toContain('onerror')

      // another user's incident is not found, and nothing of it shows
      const other = await d.signedIn('other@example.com')
      expect((await other.goto(page.url()))?.status()).toBe(404)
      expect((await other.goto(pageUrl))?.status()).toBe(404)
    })

    it('publishes a draft, discards another, lists open incidents first with drafts marked, deletes', async () => {
      const draftUrl = await postIncident('Slow search', { draft: true })
      expect(await page.getByText('This incident is a draft.').count()).toBe(1)
      expect(await publicPage()).not.toContain('Slow search')
      await page.getByRole('button', { name: 'Publish' }).click()
      await page.getByRole('heading', { name: 'Slow search', level: 1 }).waitFor()
      expect(await page.getByText('This incident is a draft.').count()).toBe(0)
      expect(await publicPage()).toContain('Slow search')

      // resolve the first incident: it goes below the open ones
      await page.goto(pageUrl)
      await page.getByRole('link', { name: 'Checkout errors' }).click()
      await page.getByLabel('Status').first().selectOption('resolved')
      await page.getByLabel('Update', { exact: true }).fill('Rolled back')
      await page.getByRole('button', { name: 'Post update' }).click()
      await page.getByText('Rolled back').waitFor()

      const discardUrl = await postIncident('Mail delays', { draft: true })
      await page.goto(pageUrl)
      const titles = await rows(page).locator('td:first-child').allTextContents()
      expect(titles).toEqual(['Mail delays', 'Slow search', 'Checkout errors'])
      expect(await rows(page).nth(0).textContent()).toMatch(/Draft/)
      expect(await rows(page).nth(1).textContent()).not.toMatch(/Draft/)
      expect(await rows(page).nth(2).textContent()).toMatch(/Resolved/)
      await expectAccessible(page, 'status page with incidents')

      await page.goto(discardUrl)
      await page.getByRole('link', { name: 'Discard' }).click()
      await expectAccessible(page, 'discard confirmation')
      await page.getByRole('button', { name: 'Discard' }).click()
      await page.getByRole('heading', { name: 'Acme status', level: 1 }).waitFor()
      expect(await rows(page).count()).toBe(2)

      await page.goto(draftUrl)
      await page.getByRole('link', { name: 'Delete this incident' }).click()
      await page.getByRole('button', { name: 'Delete' }).click()
      await page.getByRole('heading', { name: 'Acme status', level: 1 }).waitFor()
      expect(await rows(page).allTextContents()).toHaveLength(1)
      expect(await publicPage()).not.toContain('Slow search')
      expect((await page.goto(draftUrl))?.status()).toBe(404)
    })

    it('shows the subscribers counted and paged, webhooks masked, and removes one by its button', async () => {
      const pageId = pageUrl.split('/').pop()!
      const at = Date.now()
      const sub = (i: number, type: 'email' | 'webhook', target: string): SubscriberRecord => ({
        id: `0193a5c4-8f2e-7b1a-9c3d-${String(i).padStart(12, '0')}`,
        page_id: pageId,
        type,
        target,
        secret_sealed: null,
        created_at: new Date(at + i).toISOString(),
      })
      await d.store.statusSubscribers.addSubscribers([
        sub(0, 'webhook', 'http://127.0.0.1:9/hooks/s3cret-path'),
        ...Array.from({ length: 22 }, (_, i) => sub(i + 1, 'email', `reader${i + 1}@example.com`)),
      ])
      await page.goto(pageUrl)
      await page.getByText('22 email addresses (confirmed), 1 webhook').waitFor()
      const subRows = page.locator('section[aria-labelledby="subscribers"] tbody tr')
      expect(await subRows.count()).toBe(20)
      expect(await page.content()).not.toContain('s3cret-path')
      await expectAccessible(page, 'status page with subscribers')
      await screenshot(page, 'status-page-incidents')
      await page.getByRole('link', { name: 'Next subscribers' }).click()
      expect(await subRows.count()).toBe(3)
      expect(await page.getByText('reader22@example.com').count()).toBe(1)

      // the remove button's POST needs the form's CSRF token
      const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
      const forged = await fetch(
        `${url}/status-pages/${pageId}/subscribers/${sub(22, 'email', '').id}/delete`,
        {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: url },
          body: '',
        },
      )
      expect(forged.status).toBe(403)
      expect(await d.store.statusSubscribers.countSubscribers(pageId)).toBe(23)

      await page.getByRole('button', { name: 'Remove reader22@example.com' }).click()
      await page.getByText('21 email addresses (confirmed), 1 webhook').waitFor()
      expect(await page.getByText('reader22@example.com').count()).toBe(0)
      expect(await d.store.statusSubscribers.countSubscribers(pageId)).toBe(22)
    })
  },
)
