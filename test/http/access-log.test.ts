/**
 * The access log never holds a secret (issue 31): push tokens and invite tokens in paths, and
 * secret query parameters, are redacted; other paths are logged as sent.
 */
import { describe, expect, it } from 'vitest'
import { accessLine, REDACTED, redactPath } from '../../src/http/access-log.js'

const TOKEN = 'hb_0193a5c47a107c3e8d2f4b5a6c7d8e9fAbCdEfGhIjKlMnOpQrStUvWx'

describe('redactPath', () => {
  it('redacts the secret segment of push and invite paths, however the path is spelled', () => {
    expect(redactPath(`/api/push/${TOKEN}`)).toBe(`/api/push/${REDACTED}`)
    expect(redactPath(`/api/push/${TOKEN}/`)).toBe(`/api/push/${REDACTED}/`)
    expect(redactPath(`//api//push/${TOKEN}?status=down`)).toBe(`//api//push/${REDACTED}?status=down`)
    expect(redactPath(`/API/Push/${TOKEN}`)).toBe(`/API/Push/${REDACTED}`)
    expect(redactPath('/invite/Yk8-2mQv9TzL4pRc7nWd0s')).toBe(`/invite/${REDACTED}`)
  })

  it('redacts secret query values and leaves everything else as it was', () => {
    expect(redactPath('/device?code=WDJB-MJHT&x=1')).toBe(`/device?code=${REDACTED}&x=1`)
    expect(redactPath('/a?key=shk_secret&token=t#f')).toBe(`/a?key=${REDACTED}&token=${REDACTED}#f`)
    for (const p of ['/api/public/v1/monitors/abc', '/status/acme', '/api/pushy/x', '/invite', '/x?monkey=1'])
      expect(redactPath(p)).toBe(p)
  })

  it('is what the access line logs', () => {
    const line = accessLine('GET', `/api/push/${TOKEN}?status=up`, 200, undefined, 'req-1')
    expect(line).toBe(`GET /api/push/${REDACTED} 200 -ms req-1`)
  })
})
