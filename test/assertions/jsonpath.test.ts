import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { evaluateAssertions, type AssertionSubject } from '../../src/assertions/index.js'
import { Assertion, type Assertion as A } from '../../src/contract/index.js'
import { hostileJsonPaths, markerJs } from '../helpers/hostile-jsonpath.js'

const subject = (body: unknown): AssertionSubject => ({
  status_code: 200,
  response_time_ms: 10,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: {},
  health_score: 90,
  certificate_days: null,
})
const json = (property: string, comparison: A['comparison'], body: unknown, target?: string | number) =>
  evaluateAssertions(
    [{ source: 'json_body', property, comparison, ...(target === undefined ? {} : { target }) }],
    subject(body),
  )[0]

const dir = mkdtempSync(join(tmpdir(), 'sitehealth-jsonpath-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('json_body JSONPath runs no code (issue 31, CVE-2025-1302)', () => {
  const doc = { a: [{ b: 1 }, { b: 'x' }], status: 'ok' }
  const cases = Object.entries(hostileJsonPaths('')).map(([name], i) => {
    const file = join(dir, `marker-${i}`)
    const flag = `__sitehealthPwned${i}`
    return { name, file, flag, path: hostileJsonPaths(markerJs(file, flag))[name] }
  })

  it.each(cases)('$name: evaluated, it fails the assertion and runs nothing', ({ path, file, flag }) => {
    for (const comparison of ['is_empty', 'not_empty', 'equals'] as const) {
      const r = json(path, comparison, doc, 'x')
      expect(r.passed).toBe(false)
      expect(r.actual).toMatch(/^invalid JSONPath/)
    }
    expect(existsSync(file)).toBe(false)
    expect((globalThis as Record<string, unknown>)[flag]).toBeUndefined()
  })

  it.each(cases)('$name: refused as input, naming property', ({ path }) => {
    const r = Assertion.safeParse({ source: 'json_body', property: path, comparison: 'not_empty' })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0].path).toEqual(['property'])
    expect(r.error?.issues[0].message).toMatch(/RFC 9535/)
  })

  it('standard paths that name prototype members select nothing', () => {
    for (const p of [
      '$.constructor',
      '$.__proto__',
      "$['__proto__']",
      '$..constructor',
      '$.a[?@.constructor]',
      '$.status.length',
    ])
      expect(json(p, 'is_empty', doc), p).toMatchObject({ passed: true, actual: null })
  })
})

describe('json_body JSONPath is RFC 9535', () => {
  const doc = {
    status: 'ok',
    items: [
      { id: 7, name: 'db', status: 'ok', version: '1.4.2' },
      { id: 8, name: 'cache', status: 'degraded', version: 'dev' },
    ],
  }

  it('keeps the paths users write: members, indexes, wildcards, descendants, filters', () => {
    expect(json('$.status', 'equals', doc, 'ok').passed).toBe(true)
    expect(json('$.items[0].id', 'equals', doc, 7).passed).toBe(true)
    expect(json('$..name', 'contains', doc, 'cache').passed).toBe(true)
    expect(json('$.items[*].id', 'contains', doc, '8').passed).toBe(true)
    expect(json("$.items[?(@.status=='ok')].name", 'equals', doc, 'db').passed).toBe(true)
    expect(json("$.items[?@.status != 'ok'].name", 'equals', doc, 'cache').passed).toBe(true)
    expect(json('$.items[?@.id > 7].id', 'equals', doc, 8).passed).toBe(true)
    expect(json('$.items[?length(@.name) == 2].id', 'equals', doc, 7).passed).toBe(true)
  })

  it('match() and search() run regular expressions, whole value and substring', () => {
    expect(
      json("$.items[?match(@.version, '[0-9]+\\\\.[0-9]+\\\\.[0-9]+')].name", 'equals', doc, 'db').passed,
    ).toBe(true)
    expect(json("$.items[?search(@.status, 'grad')].id", 'equals', doc, 8).passed).toBe(true)
    expect(json("$.items[?match(@.status, 'grad')]", 'is_empty', doc).passed).toBe(true)
    // an invalid pattern matches nothing (RFC 9535 §2.4.6), it does not throw
    expect(json("$.items[?match(@.status, '(')]", 'is_empty', doc).passed).toBe(true)
  })

  it('a path that is not RFC 9535 fails whatever its comparison, and says why', () => {
    const r = json('$.items[?(@.id === 7)]', 'is_empty', doc)
    expect(r.passed).toBe(false)
    expect(r.actual).toMatch(/^invalid JSONPath/)
  })
})
