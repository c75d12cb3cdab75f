// A check's page says how its performance was judged: measured by Lighthouse in the lab browser,
// or estimated without one (docs/decisions.md#performance-lab-and-estimate).
import { describe, expect, it } from 'vitest'
import type { SavedCheck } from '../../../src/contract/index.js'
import { checkPage } from '../../../src/dashboard/pages/checks.js'
import { toHtml } from '../../../src/dashboard/pages/html.js'

const ctx = { csrf: 'x', asset: () => undefined, path: '/checks/1' }
const signal = { status: 'ok' as const, message: 'Fine.' }
const check = (pagespeed: Record<string, unknown> | undefined): SavedCheck => ({
  id: '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
  url: 'https://shop.example/',
  status: 'completed',
  health_score: 90,
  risk_level: 'low',
  created_at: '2025-06-01T12:00:00.000Z',
  summary: 'Healthy.',
  checks: {
    reachability: signal,
    https_ssl: signal,
    response_time: signal,
    security_headers: signal,
    pagespeed: { ...signal, details: pagespeed },
  },
})
const text = (page: string) => page.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ')

describe('check page: measured or estimated', () => {
  it('says measured, with the Lighthouse version, for a lab run', () => {
    const page = text(
      toHtml(checkPage(ctx, check({ method: 'lab', lighthouseVersion: '12.8.2', score: 88 }))),
    )
    expect(page).toContain('Measured by Lighthouse 12.8.2 in Chromium (simulated mobile).')
    expect(page).not.toContain('Estimated')
  })

  it('says estimated for the estimate (a lab fallback too)', () => {
    const page = text(toHtml(checkPage(ctx, check({ method: 'estimate', score: 95 }))))
    expect(page).toContain('Estimated without a browser')
    expect(page).not.toContain('Measured by')
  })

  it('says neither when the signal has no method (unavailable, older checks)', () => {
    const page = text(toHtml(checkPage(ctx, check(undefined))))
    expect(page).not.toMatch(/Measured by|Estimated without/)
  })
})
