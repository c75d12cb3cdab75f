/**
 * The public status page in Debian's Chromium (docs/decisions.md#the-public-face), with an open
 * incident and its updates and the subscribe forms (docs/status-pages.md): axe-clean in
 * light and dark at 390 and 1280 px, no sideways scrolling, and readable with JavaScript off, under
 * the page's own headers (the strict CSP included): every request of the browser is answered by
 * the real app in process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Route } from 'playwright-core'
import { expectAccessible, expectFits, haveChromium, launch, noticeIfMissing } from '../dashboard/browser.js'
import { startHarness, type Harness } from './harness.js'

const ORIGIN = 'http://status.example.test'
let h: Harness
let browser: Browser | undefined

/** Every request of the context goes to the in-process app, headers and all. */
async function served(context: BrowserContext): Promise<void> {
  await context.route('**/*', async (route: Route) => {
    const url = new URL(route.request().url())
    if (url.origin !== ORIGIN) return route.abort()
    const res = await h.fetch(url.pathname + url.search)
    await route.fulfill({
      status: res.status,
      headers: Object.fromEntries(res.headers.entries()),
      body: Buffer.from(await res.arrayBuffer()),
    })
  })
}

noticeIfMissing()

describe.runIf(haveChromium || process.env.CI)(
  'the public status page in Chromium',
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      // SMTP is set (the email form shows) but never reached: nobody subscribes here
      h = await startHarness({ subscribers: { secretKey: 'k'.repeat(40), smtpUrl: 'smtp://127.0.0.1:9' } })
      const key = await h.newKey('alice')
      const ids: string[] = []
      for (let i = 0; i < 20; i++) {
        const m = await h.monitor('alice', { name: `Service ${i}`, state: i === 3 ? 'down' : 'up' })
        h.uptime.set(m.id, {
          percent: i === 3 ? 91.5 : i % 4 === 0 ? 99.2 : 100,
          incidents:
            i === 3 ? [{ started_at: new Date(Date.now() - 7200_000).toISOString(), ended_at: null }] : [],
        })
        ids.push(m.id)
      }
      const r = await h.api(key, 'POST', '/api/public/v1/status-pages', {
        slug: 'acme',
        title: 'Acme status',
        description: 'Everything Acme runs',
        monitor_ids: ids,
      })
      expect(r.status).toBe(201)
      const inc = await h.api(key, 'POST', `/api/public/v1/status-pages/${r.body.id}/incidents`, {
        title: 'Checkout errors <b>now</b>',
        message: 'Payments fail for some cards.',
        impact: 'major',
        monitor_ids: [ids[3]],
      })
      expect(inc.status).toBe(201)
      await h.api(key, 'POST', `/api/public/v1/status-pages/${r.body.id}/incidents/${inc.body.id}/updates`, {
        status: 'identified',
        message: 'A bad deploy; rolling back.',
      })
      browser = await launch()
    })
    afterAll(async () => {
      await browser?.close()
      await h?.close()
    })

    for (const colorScheme of ['light', 'dark'] as const)
      for (const width of [390, 1280])
        it(`is axe-clean and fits at ${width} px in ${colorScheme}`, async () => {
          const context = await browser!.newContext({ viewport: { width, height: 900 }, colorScheme })
          await served(context)
          const page = await context.newPage()
          const res = await page.goto(`${ORIGIN}/status/acme`)
          expect(res?.status()).toBe(200)
          expect(res?.headers()['content-security-policy']).toContain("default-src 'none'")
          expect(await page.locator('h1').innerText()).toContain('Acme status')
          expect(await page.getByText('Checkout errors <b>now</b>').count()).toBe(1)
          expect(await page.getByLabel('Email address').count()).toBe(1)
          expect(await page.getByLabel('Webhook URL').count()).toBe(1)
          await expectFits(page, `status page at ${width} px (${colorScheme})`)
          await expectAccessible(page, `status page at ${width} px (${colorScheme})`)
          await context.close()
        })

    it('reads the same with JavaScript off: the state, each monitor and its bars as text', async () => {
      const context = await browser!.newContext({
        javaScriptEnabled: false,
        viewport: { width: 390, height: 900 },
      })
      await served(context)
      const page = await context.newPage()
      await page.goto(`${ORIGIN}/status/acme`)
      const text = await page.locator('main').innerText()
      expect(text).toMatch(/Service 0/)
      expect(text).toMatch(/Service 19/)
      // 20 monitors × 90 days, each bar with its date and percent in words
      expect(await page.locator('ol.b > li').count()).toBe(20 * 90)
      expect(await page.locator('ol.b > li').first().innerText()).toMatch(/^\d{4}-\d{2}-\d{2}: [\d.]+ ?%$/)
      // and in colour: a 100% day green, 99.2% yellow, 91.5% red (light scheme)
      const colour = (monitor: number) =>
        page
          .locator('ol.b')
          .nth(monitor)
          .locator('li')
          .last()
          .evaluate((el) => getComputedStyle(el).backgroundColor)
      expect(await colour(1)).toBe('rgb(45, 164, 78)')
      expect(await colour(0)).toBe('rgb(191, 135, 0)')
      expect(await colour(3)).toBe('rgb(207, 34, 46)')
      await context.close()
    })
  },
)
