import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { recentFooter, renderRecent, renderRunResult, renderSavedCheck } from '../../src/cli/render/checks.js'
import {
  renderCreditGrant,
  renderKeyCreated,
  keyListFooter,
  renderKeyList,
  renderKeyRevoked,
} from '../../src/cli/render/admin.js'
import { formatTime } from '../../src/cli/render/format.js'
import { renderCredits, renderStatus } from '../../src/cli/render/service.js'
import { plainView } from '../../src/cli/render/view.js'
import { makeStyle } from '../../src/cli/style.js'
import type { SavedCheck } from '../../src/contract/index.js'
import { ESC, recentPage, runResult, savedCheck } from './fixtures.js'

const plain = plainView()
const colour = plainView({ style: makeStyle(true) })

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

  it('says whether performance was measured in the lab browser or estimated', () => {
    const lab = runResult()
    lab.data.checks.pagespeed.method = 'lab'
    expect(renderRunResult(plain, lab)).toContain(
      'performance score: 91/100, measured (Lighthouse in Chromium)',
    )
    const est = runResult()
    est.data.checks.pagespeed.method = 'estimate'
    expect(renderRunResult(plain, est)).toContain('performance score: 91/100, estimated (no browser run)')
    // the score in the message, but not how it was judged: only the how
    est.data.checks.pagespeed.message = 'Compressed (performance 91/100)'
    const t = renderRunResult(plain, est)
    expect(t).toContain('performance: estimated (no browser run)')
    expect(t).not.toContain('performance score:')
    // the server's message says both (as this server's do): nothing repeated
    lab.data.checks.pagespeed.message = 'Performance 91/100 (measured by Lighthouse 12.8.2 in Chromium)'
    expect(renderRunResult(plain, lab)).not.toMatch(/performance( score)?: /)
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
    for (const label of ['reachability', 'https', 'response time', 'security headers', 'pagespeed'])
      expect(text).toContain(label)
    expect(text).toMatch(/https\s+needs_review\s+Certificate expired on 2025-05-29\./)
    expect(text).toMatch(/pagespeed\s+unavailable\s+Not measured\./)
    expect(text).toMatch(/score\s+46\/100/)
    expect(text).toMatch(/risk\s+high/)
    expect(text).toMatch(/summary\s+The certificate expired 3 days ago\./)
    expect(text.split('\n')[0]).toBe('https://shop.example/  needs_review')
    expect(text).toMatch(/created\s+2025-06-01 12:00:00 UTC/)
    expect(text).not.toContain(ESC)
  })
})

describe('renderSavedCheck: how performance was judged', () => {
  const withPagespeed = (details: Record<string, unknown>): SavedCheck => ({
    ...savedCheck,
    checks: { ...savedCheck.checks, pagespeed: { status: 'ok', message: 'Fast.', details } },
  })
  it('says measured, with the Lighthouse version, or estimated', () => {
    const lab = renderSavedCheck(
      plain,
      withPagespeed({ performanceScore: 88, method: 'lab', lighthouseVersion: '12.8.2' }),
    )
    expect(lab).toContain('page: performance 88/100, measured by Lighthouse 12.8.2')
    const est = renderSavedCheck(plain, withPagespeed({ performanceScore: 95, method: 'estimate' }))
    expect(est).toContain('page: performance 95/100, estimated')
  })
})

describe('renderRecent', () => {
  it('on a terminal: a borderless table with short ids, and the next-page command after it', () => {
    const page = recentPage(3, '2025-06-01T11:59:58.000Z')
    const text = renderRecent(plain, page, { limit: 25 })
    const [head, ...rows] = text.split('\n')
    expect(head).toMatch(/^ID\s+URL\s+SCORE\s+RISK\s+CREATED \(UTC\)$/)
    expect(rows).toHaveLength(3)
    expect(rows[2]).toMatch(/^00000002\s+https:\/\/site2\.example\/\s+88\/100\s+low\s+2025-06-01 11:59$/)
    expect(text).not.toMatch(/[│┌─]/)
    expect(recentFooter(page, { limit: 25 })).toBe(
      '3 checks. Next page: sitehealth recent --limit 25 --cursor 2025-06-01T11:59:58.000Z',
    )
    expect(text).not.toContain(ESC)
  })
  it('--wide: full ids', () => {
    expect(renderRecent(plain, recentPage(1, null), { wide: true })).toContain(
      '00000000-0000-4000-8000-000000000000',
    )
  })
  it('in a pipe: tab-separated full values, no header', () => {
    const text = renderRecent(plainView({ tty: false }), recentPage(2, null))
    expect(text.split('\n')).toEqual([
      '00000000-0000-4000-8000-000000000000\thttps://site0.example/\t90\tlow\t2025-06-01T12:00:00.000Z',
      '00000000-0000-4000-8000-000000000001\thttps://site1.example/\t89\tlow\t2025-06-01T11:59:59.000Z',
    ])
  })
  it('fits the width by cutting URLs, never ids or scores', () => {
    const page = recentPage(2, null)
    page.checks[0].url = `https://${'very-long-name.'.repeat(6)}example/path`
    for (const width of [60, 80]) {
      const lines = renderRecent(plainView({ width }), page).split('\n')
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(width)
      expect(lines[1]).toContain('…')
      expect(lines[1]).toMatch(/^00000000\s/)
      expect(lines[1]).toContain('90/100')
    }
  })
  it('says when there is nothing more, and how to start when empty', () => {
    expect(recentFooter(recentPage(1, null))).toBe('1 check. No more checks.')
    expect(recentFooter(recentPage(0, null), { all: true })).toMatch(/No saved checks\. Run one with/)
  })
  it('colours only through the style', () => {
    const coloured = renderRecent(colour, recentPage(2, null))
    expect(coloured).toContain(ESC)
    expect(stripVTControlCharacters(coloured)).toBe(renderRecent(plain, recentPage(2, null)))
  })
})

describe('check and get show the same check alike', () => {
  it('same labels and the same field names', () => {
    const label = (t: string) =>
      t
        .split('\n')
        .slice(1, t.split('\n').indexOf(''))
        .filter((l) => /^ {2}\S/.test(l))
        .map((l) => l.slice(0, 18).trim())
    expect(label(renderRunResult(plain, runResult()))).toEqual(label(renderSavedCheck(plain, savedCheck)))
    for (const f of ['score', 'risk', 'summary', 'check id', 'created']) {
      expect(renderRunResult(plain, runResult())).toMatch(new RegExp(`^  ${f}\\s`, 'm'))
      expect(renderSavedCheck(plain, savedCheck)).toMatch(new RegExp(`^  ${f}\\s`, 'm'))
    }
  })
  it('get shows what was measured: certificate, TLS, timings, headers', () => {
    const measured = structuredClone(savedCheck)
    measured.checks.https_ssl.details = {
      issuer: 'R11',
      validTo: '2025-08-30T00:00:00.000Z',
      daysLeft: 90,
      protocol: 'TLSv1.3',
      authorized: true,
    }
    measured.checks.response_time.details = {
      dnsMs: 3,
      connectMs: 4,
      tlsMs: 11,
      serverWaitMs: 90,
      ttfbMs: 110,
      totalMs: 130,
    }
    measured.checks.security_headers.details = {
      present: ['content-security-policy'],
      missing: ['permissions-policy'],
      weak: [{ header: 'strict-transport-security', problem: 'max-age is 1 day' }],
    }
    measured.checks.reachability.details = {
      statusCode: 200,
      httpVersion: '2',
      redirectCount: 1,
      finalUrl: 'https://shop.example/',
    }
    const text = renderSavedCheck(plain, measured)
    expect(text).toContain('certificate: expires 2025-08-30 (in 90 days), issued by R11')
    expect(text).toContain('tls: TLSv1.3, chain trusted')
    expect(text).toContain(
      'timing: dns 3 ms, connect 4 ms, tls 11 ms, server 90 ms, first byte 0.11 s, total 0.13 s',
    )
    expect(text).toContain('present: content-security-policy')
    expect(text).toContain('missing: permissions-policy')
    expect(text).toContain('weak: strict-transport-security (max-age is 1 day)')
    expect(text).toContain('answer: HTTP 200, HTTP/2, 1 redirect to https://shop.example/')
  })
  it('ignores details of unexpected shapes instead of failing', () => {
    const odd = structuredClone(savedCheck)
    odd.checks.https_ssl.details = { validTo: 42, issuer: { cn: 'x' }, protocol: null }
    odd.checks.security_headers.details = { present: 'all', weak: [7, null] }
    expect(() => renderSavedCheck(plain, odd)).not.toThrow()
    expect(renderSavedCheck(plain, odd)).not.toMatch(/certificate:|present:|weak:/)
  })
})

describe('wrapping to the terminal', () => {
  const long = runResult()
  long.data.summary = 'word '.repeat(60).trim()
  long.data.checks.https.message =
    'Certificate for shop.example expires in 6 days (2026-11-28); renew it before it lapses and visitors see a warning'
  for (const width of [60, 80, 120]) {
    it(`${width} columns: no line is wider, continuation lines hang under the text`, () => {
      const lines = renderRunResult(plainView({ width }), long).split('\n')
      for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(width)
      const summary = lines.findIndex((l) => l.startsWith('  summary'))
      const col = lines[summary].indexOf('word')
      expect(lines[summary + 1].indexOf('word')).toBe(col)
      expect(lines[summary + 1].slice(0, col).trim()).toBe('')
      // never a word cut in two
      for (const l of lines) expect(l).not.toMatch(/\bwor$|^\s*ord\b/)
    })
  }
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
    expect(text).toContain('revoked')
    expect(
      renderKeyList(plainView({ tty: false }), {
        keys: [{ ...key, last_used_at: null, revoked_at: key.created_at }].map(({ key: _k, ...k }) => k),
      }),
    ).toContain('revoked 2025-06-01T12:00:00.000Z')
    expect(keyListFooter({ keys: [] })).toMatch(/No API keys yet/)
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
