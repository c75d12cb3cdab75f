import { describe, expect, it } from 'vitest'
import { evaluateAssertions, firstFailure, type AssertionSubject } from '../../src/assertions/index.js'
import { Assertion, MonitorCreate, type Assertion as A } from '../../src/contract/index.js'

const subject = (over: Partial<AssertionSubject> = {}): AssertionSubject => ({
  status_code: 200,
  response_time_ms: 180,
  body: '{"status":"ok","version":"1.4.2","checks":[{"name":"db","ok":true}],"count":3}',
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-build': 'abc123' },
  health_score: 88,
  certificate_days: 40,
  ...over,
})

const one = (a: A, s = subject()) => evaluateAssertions([a], s)[0]

describe('evaluateAssertions', () => {
  it('judges status code, response time, health score and certificate days as numbers', () => {
    expect(one({ source: 'status_code', comparison: 'equals', target: 200 })).toMatchObject({
      passed: true,
      actual: 200,
    })
    expect(one({ source: 'status_code', comparison: 'equals', target: '200' }).passed).toBe(true)
    expect(one({ source: 'status_code', comparison: 'not_equals', target: 200 }).passed).toBe(false)
    expect(one({ source: 'response_time', comparison: 'less_than', target: 500 }).passed).toBe(true)
    expect(one({ source: 'response_time', comparison: 'greater_than', target: 500 }).passed).toBe(false)
    expect(one({ source: 'health_score', comparison: 'greater_than', target: 80 }).passed).toBe(true)
    expect(one({ source: 'certificate_days', comparison: 'greater_than', target: 14 }).passed).toBe(true)
  })

  it('a plain-http site has no certificate: certificate_days is empty, and comparisons on it fail', () => {
    const s = subject({ certificate_days: null })
    expect(one({ source: 'certificate_days', comparison: 'is_empty' }, s)).toMatchObject({
      passed: true,
      actual: null,
    })
    expect(one({ source: 'certificate_days', comparison: 'greater_than', target: 14 }, s).passed).toBe(false)
  })

  it('reads the body as text', () => {
    expect(one({ source: 'text_body', comparison: 'contains', target: '"status":"ok"' }).passed).toBe(true)
    expect(one({ source: 'text_body', comparison: 'not_contains', target: 'error' }).passed).toBe(true)
    expect(one({ source: 'text_body', comparison: 'contains', target: 'maintenance' }).passed).toBe(false)
    expect(one({ source: 'text_body', comparison: 'is_empty' }, subject({ body: '  ' })).passed).toBe(true)
    expect(one({ source: 'text_body', comparison: 'not_empty' }, subject({ body: null })).passed).toBe(false)
  })

  it('cuts a long actual to 200 characters', () => {
    const r = one(
      { source: 'text_body', comparison: 'contains', target: 'zzz' },
      subject({ body: 'a'.repeat(5000) }),
    )
    expect(r.passed).toBe(false)
    expect(typeof r.actual === 'string' && r.actual.length).toBe(201)
  })

  it('reads JSON with JSONPath', () => {
    expect(
      one({ source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' }),
    ).toMatchObject({
      passed: true,
      actual: 'ok',
      property: '$.status',
    })
    expect(one({ source: 'json_body', property: '$.count', comparison: 'equals', target: '3' }).passed).toBe(
      true,
    )
    expect(
      one({ source: 'json_body', property: '$.count', comparison: 'greater_than', target: 2 }).passed,
    ).toBe(true)
    expect(
      one({ source: 'json_body', property: '$.checks[0].ok', comparison: 'equals', target: 'true' }).passed,
    ).toBe(true)
    expect(
      one({ source: 'json_body', property: '$.checks[*].name', comparison: 'contains', target: 'db' }).passed,
    ).toBe(true)
    expect(
      one({ source: 'json_body', property: '$.checks[?(@.ok == false)]', comparison: 'is_empty' }).passed,
    ).toBe(true)
    expect(one({ source: 'json_body', property: '$.missing', comparison: 'not_empty' })).toMatchObject({
      passed: false,
      actual: null,
    })
  })

  it('a body that is not JSON fails a json_body assertion instead of throwing', () => {
    const r = one(
      { source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' },
      subject({ body: '<html>' }),
    )
    expect(r).toMatchObject({ passed: false, actual: null })
  })

  it('reads headers by name, case-insensitively', () => {
    expect(
      one({ source: 'header', property: 'Content-Type', comparison: 'contains', target: 'json' }).passed,
    ).toBe(true)
    expect(one({ source: 'header', property: 'x-missing', comparison: 'is_empty' }).passed).toBe(true)
    expect(
      one({ source: 'header', property: 'x-build', comparison: 'equals', target: 'abc123' }).actual,
    ).toBe('abc123')
  })

  it('firstFailure names the first failing assertion, in order', () => {
    const results = evaluateAssertions(
      [
        { source: 'status_code', comparison: 'equals', target: 200 },
        { source: 'json_body', property: '$.status', comparison: 'equals', target: 'degraded' },
        { source: 'text_body', comparison: 'contains', target: 'nope' },
      ],
      subject(),
    )
    expect(results.map((r) => r.passed)).toEqual([true, false, false])
    expect(firstFailure(results)).toMatchObject({ property: '$.status', actual: 'ok' })
    expect(firstFailure(results.slice(0, 1))).toBeUndefined()
  })
})

describe('the Assertion shape', () => {
  const bad = (a: unknown) => {
    const r = Assertion.safeParse(a)
    return r.success ? null : { path: r.error.issues[0].path.join('.'), message: r.error.issues[0].message }
  }

  it('accepts the seven sources and eight comparisons', () => {
    expect(bad({ source: 'status_code', comparison: 'equals', target: 200 })).toBeNull()
    expect(bad({ source: 'json_body', property: '$.a', comparison: 'not_empty' })).toBeNull()
    expect(bad({ source: 'header', property: 'etag', comparison: 'not_contains', target: 'W/' })).toBeNull()
  })

  it('names the field that is wrong', () => {
    expect(bad({ source: 'json_body', comparison: 'equals', target: 'x' })?.path).toBe('property')
    expect(bad({ source: 'json_body', property: 'status', comparison: 'equals', target: 'x' })?.path).toBe(
      'property',
    )
    expect(bad({ source: 'status_code', property: 'x', comparison: 'equals', target: 1 })?.path).toBe(
      'property',
    )
    expect(bad({ source: 'status_code', comparison: 'contains', target: 1 })?.path).toBe('comparison')
    expect(bad({ source: 'status_code', comparison: 'equals' })?.path).toBe('target')
    expect(bad({ source: 'status_code', comparison: 'equals', target: 'two hundred' })?.path).toBe('target')
    expect(bad({ source: 'body', comparison: 'equals', target: 'x' })?.path).toBe('source')
    expect(bad({ source: 'text_body', comparison: 'matches', target: 'x' })?.path).toBe('comparison')
    expect(bad({ source: 'text_body', comparison: 'equals', target: 'x', extra: 1 })).not.toBeNull()
  })

  it('a monitor carries at most 20, and the error names assertions.N.field', () => {
    const a = { source: 'status_code', comparison: 'equals', target: 200 }
    expect(MonitorCreate.safeParse({ url: 'https://e.com', assertions: Array(20).fill(a) }).success).toBe(
      true,
    )
    expect(MonitorCreate.safeParse({ url: 'https://e.com', assertions: Array(21).fill(a) }).success).toBe(
      false,
    )
    const r = MonitorCreate.safeParse({
      url: 'https://e.com',
      assertions: [a, { source: 'json_body', comparison: 'equals', target: 'ok' }],
    })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0].path).toEqual(['assertions', 1, 'property'])
  })
})
