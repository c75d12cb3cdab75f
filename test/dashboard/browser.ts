/**
 * The browser of the dashboard's end-to-end tests: playwright-core driving Debian's Chromium
 * (/usr/bin/chromium; Playwright's own browser download cannot work on these machines). Without
 * it the tests skip with a one-line notice, except under CI, where they fail.
 */
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import axe from 'axe-core'
import { chromium, type Browser, type Page } from 'playwright-core'
import { expect } from 'vitest'

export const CHROMIUM = process.env.SITEHEALTH_CHROMIUM ?? '/usr/bin/chromium'
export const haveChromium = existsSync(CHROMIUM)
/** Screenshots of the main pages, kept as test artifacts (docs/screenshots holds the copies docs/dashboard.md shows). */
export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots')

export function noticeIfMissing(): void {
  if (!haveChromium && !process.env.CI)
    console.warn(`dashboard browser tests skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`)
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  })
}

/** axe-core (WCAG 2.x A/AA rules): no serious or critical violation. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // axe-core itself, evaluated in the page (CDP evaluation is not subject to the page's CSP);
  // @axe-core/playwright wanted Node 22.12+, while the package supports 20.19
  await page.evaluate(axe.source)
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
      }),
    ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'],
  )
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    bad.map(
      (v) =>
        `${what}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([])
}

/** The page fits the viewport: nothing wider than the window (no sideways scrolling). */
export async function expectFits(page: Page, what: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }))
  expect(scroll, `${what} is wider than ${width} px`).toBeLessThanOrEqual(width)
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true })
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    // let layout and resize observers settle
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    await expectFits(page, `${name} at ${width} px`)
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}
