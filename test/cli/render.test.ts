import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { renderRecent, renderRunResult, renderSavedCheck } from '../../src/cli/render/checks.js'
import {
  renderCreditGrant,
  renderKeyCreated,
  renderKeyList,
  renderKeyRevoked,
} from '../../src/cli/render/admin.js'
import { formatTime } from '../../src/cli/render/format.js'
import { renderCredits, renderStatus } from '../../src/cli/render/service.js'
import { makeStyle } from '../../src/cli/style.js'
import { ESC, recentPage, runResult, savedCheck } from './fixtures.js'

const plain = makeStyle(false)
const colour = makeStyle(true)

describe('renderRunResult', () => {
  const text = renderRunResult(plain, runResult())

  it('shows each signal with its status and message', () => {
    expect(text).toMatch(/reachability\s+ok\s+Answered 200 in 120 ms\./)
    expect(text).toMatch(/https\s+ok\s+Valid certificate/)
    expect(text).toMatch(/response time\s+warning\s+First byte after 900 ms\./)
    expect(text).toMatch(/security headers\s+needs_review\s+2 of 6 security headers missing\./)
    expect(text).toMatch(/pagespeed\s+ok\s+Compressed, 40 KB\./)
  })

  it('lists the missing headers and the performance score', () => {
    expect(text).toContain('missing: content-security-policy, x-frame-options')
    expect(text).toContain('performance score: 91/100')
  })

  it('shows the score, risk, summary, check id and credits left', () => {
    expect(text).toMatch(/score\s+72\/100/)
    expect(text).toMatch(/risk\s+medium/)
    expect(text).toMatch(/summary\s+Mostly healthy; add a Content-Security-Policy\./)
    expect(text).toMatch(/check id\s+0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d/)
    expect(text).toContain('sitehealth get 0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d')
    expect(text).toMatch(/credits\s+41 left/)
  })

  it('does not repeat what the messages already say', () => {
    const r = runResult()
    r.data.checks.securityHeaders.message = 'Missing 2: content-security-policy, x-frame-options'
    r.data.checks.pagespeed.message = 'Compressed (performance 91/100)'
    const t = renderRunResult(plain, r)
    expect(t).not.toContain('missing: ')
    expect(t).not.toContain('performance score:')
    expect(t.match(/content-security-policy/g)).toHaveLength(1)
  })

  it('has no escape codes without colour, and the same text with it', () => {
    expect(text).not.toContain(ESC)
    const coloured = renderRunResult(colour, runResult())
    expect(coloured).toContain(`${ESC}[32mok${ESC}[39m`)
    expect(coloured).toContain(`${ESC}[31mneeds_review${ESC}[39m`)
    expect(stripVTControlCharacters(coloured)).toBe(text)
  })

  it('keeps the signal columns aligned when coloured', () => {
    const col = (t: string) =>
      stripVTControlCharacters(t)
        .split('\n')
        .find((l) => l.includes('First byte'))!
        .indexOf('First')
    expect(col(renderRunResult(colour, runResult()))).toBe(col(text))
  })
})

describe('renderSavedCheck', () => {
  const text = renderSavedCheck(plain, savedCheck)
  it('shows all five signals, status, summary, score, risk, created', () => {
    for (const label of ['reachability', 'https / ssl', 'response time', 'security headers', 'pagespeed'])
      expect(text).toContain(label)
    expect(text).toMatch(/https \/ ssl\s+needs_review\s+Certificate expired on 2025-05-29\./)
    expect(text).toMatch(/pagespeed\s+unavailable\s+Not measured\./)
    expect(text).toMatch(/score\s+46\/100/)
    expect(text).toMatch(/risk\s+high/)
    expect(text).toMatch(/summary\s+The certificate expired 3 days ago\./)
    expect(text).toMatch(/status\s+completed/)
    expect(text).toMatch(/created\s+2025-06-01 12:00:00 UTC/)
    expect(text).not.toContain(ESC)
  })
})

describe('renderRecent', () => {
  it('is a table with id, url, score, risk, created and the next-page command', () => {
    const text = renderRecent(plain, recentPage(3, '2025-06-01T11:59:58.000Z'), { limit: 25 })
    expect(text).toMatch(/id.*url.*score.*risk.*created/)
    expect(text).toContain('https://site2.example/')
    expect(text).toContain('88/100')
    expect(text).toContain(
      '3 checks. Next page: sitehealth recent --limit 25 --cursor 2025-06-01T11:59:58.000Z',
    )
    expect(text).not.toContain(ESC)
  })
  it('says when there is nothing more', () => {
    expect(renderRecent(plain, recentPage(1, null))).toContain('1 check. No more checks.')
  })
  it('says how to start when empty', () => {
    expect(renderRecent(plain, recentPage(0, null), { all: true })).toMatch(/No saved checks\. Run one with/)
  })
  it('colours only through the style (cli-table3 adds none of its own)', () => {
    const coloured = renderRecent(colour, recentPage(2, null))
    expect(coloured).toContain(ESC)
    expect(stripVTControlCharacters(coloured)).toBe(renderRecent(plain, recentPage(2, null)))
  })
})

describe('service views', () => {
  it('credits: balance and usage note', () => {
    const text = renderCredits(plain, {
      credits_remaining: 97,
      plan: null,
      usage_note: '1 credit per saved check.',
    })
    expect(text).toContain('97 credits remaining')
    expect(text).toMatch(/plan\s+none/)
    expect(text).toMatch(/usage\s+1 credit per saved check\./)
  })
  it('status: health, metadata and the API URL used', () => {
    const text = renderStatus(plain, {
      apiUrl: 'http://127.0.0.1:8787',
      health: { ok: true, service: 'sitehealth', version: 'v1' },
      meta: {
        service: 'sitehealth',
        description: 'Website health checks.',
        capabilities: ['website_health_check', 'recent_checks'],
        recommended_for: ['agencies'],
        agent_use_cases: [],
        docs_url: 'http://127.0.0.1:8787/docs',
        openapi_url: 'http://127.0.0.1:8787/openapi.json',
      },
    })
    expect(text).toContain('sitehealth v1 is up at http://127.0.0.1:8787')
    expect(text).toMatch(/capabilities\s+website_health_check, recent_checks/)
    expect(text).toMatch(/docs\s+http:\/\/127\.0\.0\.1:8787\/docs/)
    expect(text).toMatch(/openapi\s+http:\/\/127\.0\.0\.1:8787\/openapi\.json/)
    expect(text).toMatch(/API URL\s+http:\/\/127\.0\.0\.1:8787/)
  })
})

describe('admin views', () => {
  const key = {
    id: '5f0c2b9e-3d41-4a8e-9b7a-6c1d2e3f4a5b',
    name: 'ci',
    key: 'shk_live_abcdefTHEREST0fTHESECRET',
    prefix: 'shk_live_abcdef',
    user_id: 'acme',
    created_at: '2025-06-01T12:00:00.000Z',
  }
  it('shows the secret once with the warning, and where it was saved', () => {
    const text = renderKeyCreated(plain, key, '/home/u/.config/sitehealth/config.json')
    expect(text).toContain('shk_live_abcdefTHEREST0fTHESECRET')
    expect(text).toMatch(/will not be shown again/)
    expect(text).toContain('Saved the key and the API URL to /home/u/.config/sitehealth/config.json')
  })
  it('lists keys without secrets', () => {
    const text = renderKeyList(plain, {
      keys: [
        { ...key, key: undefined, last_used_at: null, revoked_at: null },
        { ...key, id: 'b', key: undefined, last_used_at: key.created_at, revoked_at: key.created_at },
      ].map(({ key: _k, ...k }) => k),
    })
    expect(text).not.toContain('THEREST0fTHESECRET')
    expect(text).toContain('shk_live_abcdef')
    expect(text).toContain('active')
    expect(text).toContain('revoked 2025-06-01 12:00:00 UTC')
    expect(text).toContain('2 keys.')
  })
  it('revoke and grant', () => {
    expect(renderKeyRevoked(plain, { id: key.id, revoked_at: key.created_at })).toContain(
      `Revoked API key ${key.id}`,
    )
    expect(renderCreditGrant(plain, { user_id: 'acme', credits_remaining: 150 }, 50)).toBe(
      'Granted 50 credits to acme: 150 now available.',
    )
  })
})

describe('formatTime', () => {
  it('shows UTC to the second, and passes through what it cannot parse', () => {
    expect(formatTime('2025-06-01T12:00:00.123Z')).toBe('2025-06-01 12:00:00 UTC')
    expect(formatTime('2025-06-01T14:00:00+02:00')).toBe('2025-06-01 12:00:00 UTC')
    expect(formatTime('later')).toBe('later')
    expect(formatTime(null)).toBe('-')
  })
})
