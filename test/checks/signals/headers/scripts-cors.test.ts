// Subresource Integrity on third-party <script src> (W3C SRI, graded as the MDN HTTP Observatory's
// sri test; "third party" = another site by the Public Suffix List, as HTML defines same-site) and
// CORS that reflects any Origin with credentials (Fetch standard CORS protocol; Observatory cors test).
import { describe, expect, it } from 'vitest'
import { judgeWith, messages } from './helpers.js'

const scripts = (...tags: string[]) => `<head>${tags.join('')}</head><body>x</body>`

describe('Subresource Integrity (W3C SRI, Observatory)', () => {
  it('a third-party https script without integrity: −5 and a finding naming it', () => {
    const s = judgeWith({}, { html: scripts('<script src="https://cdn.other.net/lib.js"></script>') })
    expect(s.details.uncurvedScore).toBe(95)
    expect(messages(s)).toContain(
      '1 third-party script without Subresource Integrity (https://cdn.other.net/lib.js): if that host is compromised, its code runs in your pages; add integrity and crossorigin attributes',
    )
    expect(s.details.sri).toMatchObject({ scripts: 1, thirdParty: 1, withoutIntegrity: 1 })
  })

  it('third-party scripts with integrity: no finding', () => {
    const s = judgeWith(
      {},
      {
        html: scripts(
          '<script src="https://cdn.other.net/lib.js" integrity="sha384-x" crossorigin="anonymous"></script>',
        ),
      },
    )
    expect(s.findings).toEqual([])
    expect(s.score).toBe(100)
  })

  it('a third-party script over plain http without integrity is the worst case (−50)', () => {
    const s = judgeWith({}, { html: scripts('<script src="http://cdn.other.net/lib.js"></script>') })
    expect(s.details.uncurvedScore).toBe(50)
    expect(s.findings[0].severity).toBe('high')
  })

  it('same-site scripts (a subdomain) are not third-party; private suffixes separate sites', () => {
    expect(
      judgeWith({}, { html: scripts('<script src="https://static.example.com/a.js"></script>') }).findings,
    ).toEqual([])
    const gh = judgeWith(
      {},
      {
        finalUrl: 'https://me.github.io/',
        html: scripts('<script src="https://other.github.io/a.js"></script>'),
      },
    )
    expect(gh.details.sri).toMatchObject({ thirdParty: 1 })
  })

  it('skips inert and nomodule scripts, and inline ones', () => {
    const s = judgeWith(
      {},
      {
        html: scripts(
          '<script type="application/ld+json" src="https://cdn.other.net/a.json"></script>',
          '<script nomodule src="https://cdn.other.net/legacy.js"></script>',
          '<script>1</script>',
        ),
      },
    )
    expect(s.details.sri).toMatchObject({ scripts: 0, thirdParty: 0 })
    expect(s.findings).toEqual([])
  })
})

describe('CORS (Fetch CORS protocol, Observatory cors test)', () => {
  const origin = 'https://cors-check-0123456789ab.example'
  const cors = (allowOrigin: string | null, allowCredentials: string | null) => ({
    url: 'https://example.com/',
    origin,
    answered: true,
    status: 204,
    allowOrigin,
    allowCredentials,
  })

  it('an Origin reflected with credentials lets any site read the pages: −50, high', () => {
    const s = judgeWith({}, { overrides: { cors: cors(origin, 'true') } })
    expect(s.details.uncurvedScore).toBe(50)
    expect(s.status).toBe('warning')
    expect(s.message).toMatch(/^CORS reflects any Origin with Access-Control-Allow-Credentials: true/)
    expect(s.details.cors).toMatchObject({ access: 'reflects-any-origin', credentials: true })
  })

  it.each([
    ['*', 'true', 'public'],
    [origin, null, 'public'],
    ['https://partner.example.org', 'true', 'restricted'],
    [null, null, 'none'],
  ])('Access-Control-Allow-Origin %s with credentials %s is %s: no penalty', (allow, creds, access) => {
    const s = judgeWith({}, { overrides: { cors: cors(allow, creds) } })
    expect(s.details.cors).toMatchObject({ access })
    expect(s.score).toBe(100)
  })

  it('an unanswered CORS request is unknown, not a finding', () => {
    const s = judgeWith(
      {},
      {
        overrides: {
          cors: { url: 'https://example.com/', origin, answered: false, error: 'no answer in time' },
        },
      },
    )
    expect(s.details.cors).toMatchObject({ checked: false, access: 'unknown' })
    expect(s.findings).toEqual([])
  })
})
