/**
 * The one rule for a typed URL (issue 21), shared by `check`, `monitors create`, the MCP tools and
 * the as-code file: full http(s) URLs as they are, a bare host means https (with its http form to
 * suggest if that fails), anything else refused with what to write.
 */
import { describe, expect, it } from 'vitest'
import { plainHttpHint, readTargetUrl, TARGET_URL_PATTERN } from '../../src/contract/index.js'

describe('readTargetUrl', () => {
  it('keeps a full http(s) URL as typed', () => {
    expect(readTargetUrl('http://127.0.0.1:8000/')).toEqual({ url: 'http://127.0.0.1:8000/' })
    expect(readTargetUrl(' HTTPS://Example.com/a?b ')).toEqual({ url: 'HTTPS://Example.com/a?b' })
  })

  it.each([
    ['example.com', 'https://example.com/', 'http://example.com/'],
    ['127.0.0.1:8000', 'https://127.0.0.1:8000/', 'http://127.0.0.1:8000/'],
    ['localhost:3000/health', 'https://localhost:3000/health', 'http://localhost:3000/health'],
    ['example.com:8080', 'https://example.com:8080/', 'http://example.com:8080/'],
  ])('reads the bare host %s as https, said so, with its http form', (typed, url, plainHttp) => {
    expect(readTargetUrl(typed)).toEqual({ url, plainHttp, note: `${typed} has no scheme: checking ${url}` })
  })

  it.each([
    ['ftp://files.example', /only http and https/],
    ['https://exa mple.com', /contains a space/],
    ['not a url', /contains a space/],
    ['mailto:me@example.com', /only http and https/],
    ['http://example.com:99999/', /not a valid URL/],
    ['-x', /is not a URL: write it in full/],
  ])('refuses %s with what to write', (typed, problem) => {
    const read = readTargetUrl(typed)
    expect('problem' in read && read.problem).toMatch(problem)
  })

  it('says how to ask for http', () => {
    expect(plainHttpHint('http://127.0.0.1:8000/')).toBe(
      'No scheme was given, so https was tried: for plain HTTP, use http://127.0.0.1:8000/',
    )
  })
})

describe('TARGET_URL_PATTERN (what tool schemas declare, without an i flag)', () => {
  const pattern = new RegExp(TARGET_URL_PATTERN, 'u')
  it.each(['https://example.com/', 'HTTP://EXAMPLE.COM/', 'example.com', '127.0.0.1:8000', '[::1]:8080/x'])(
    'accepts %s',
    (s) => expect(pattern.test(s)).toBe(true),
  )
  it.each(['ftp://example.com/', 'https://exa mple.com/', 'mailto:me@example.com', ''])('refuses %s', (s) =>
    expect(pattern.test(s)).toBe(false),
  )
})
