/**
 * One Lighthouse run, as a lab slot's worker thread does it: performance only, mobile, simulated
 * throttling (Lighthouse's defaults, said out loud), in a fresh browser context of the slot's warm
 * Chromium, closed after the run so nothing carries from one page to the next.
 *
 * What the run skips changes no score nor reported metric (docs/decisions.md#performance-lab-and-estimate):
 * every performance audit that weighs 0 in the score (diagnostics, insights, TTI …) is skipped, so
 * Lighthouse drops the gatherers only they need (CSS and JS coverage, image and DOM scans, the
 * back/forward-cache navigation, trace elements); the full-page screenshot is off. The page load,
 * its trace and the five weighted metrics (FCP, LCP, TBT, CLS, SI) are computed as before.
 */
import lighthouse, { type Config, type Flags } from 'lighthouse'
import defaultConfig from 'lighthouse/core/config/default-config.js'
import type { Browser } from 'puppeteer-core'
import type { ProxyCredential } from './proxy.js'

/** The weighted metrics the signal reports, by Lighthouse audit id. */
export const METRIC_AUDITS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
} as const

/** Performance audits that do not feed the score (weight 0): skipped. */
export function zeroWeightAudits(): string[] {
  const refs = defaultConfig.categories?.performance?.auditRefs ?? []
  const reported = new Set<string>(Object.values(METRIC_AUDITS))
  return refs.filter((r) => r.weight === 0 && !reported.has(r.id)).map((r) => r.id)
}

const FLAGS: Flags = { output: 'json', logLevel: 'silent' }

export const LAB_CONFIG: Config = {
  extends: 'lighthouse:default',
  settings: {
    onlyCategories: ['performance'],
    formFactor: 'mobile',
    // simulated throttling: RTT 150 ms, 1.6 Mbps, CPU 4× (Lighthouse's mobile defaults)
    throttlingMethod: 'simulate',
    skipAudits: zeroWeightAudits(),
    disableFullPageScreenshot: true,
  },
}

/** What a run hands back to the main thread: plain data, no report. */
export type RunReply =
  | {
      ok: true
      lighthouseVersion: string
      score: number | null
      metrics: Partial<Record<keyof typeof METRIC_AUDITS, number>>
      finalUrl: string
      runtimeError: string | null
    }
  | { ok: false; error: string }

/**
 * Runs Lighthouse on `url` in a new context of `browser`, closed afterwards; the page answers the
 * lab proxy's challenge with `proxy` (src/lab/proxy.ts).
 */
export async function runLighthouse(
  browser: Browser,
  url: string,
  proxy: ProxyCredential,
): Promise<RunReply> {
  const context = await browser.createBrowserContext()
  try {
    const page = await context.newPage()
    await page.authenticate(proxy)
    const result = await lighthouse(url, FLAGS, LAB_CONFIG, page)
    const lhr = result?.lhr
    if (!lhr) return { ok: false, error: 'Lighthouse returned no report' }
    const metrics: Partial<Record<keyof typeof METRIC_AUDITS, number>> = {}
    for (const [k, id] of Object.entries(METRIC_AUDITS) as Array<[keyof typeof METRIC_AUDITS, string]>) {
      const v = lhr.audits[id]?.numericValue
      if (typeof v === 'number') metrics[k] = v
    }
    return {
      ok: true,
      lighthouseVersion: lhr.lighthouseVersion,
      score: lhr.categories.performance?.score ?? null,
      metrics,
      finalUrl: lhr.finalDisplayedUrl,
      runtimeError: lhr.runtimeError?.code ?? null,
    }
  } finally {
    await context.close().catch(() => {})
  }
}
