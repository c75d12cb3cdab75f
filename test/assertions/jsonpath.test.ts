import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { evaluateAssertions, type AssertionSubject } from '../../src/assertions/index.js'
import { MAX_NODES } from '../../src/assertions/jsonpath.js'
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

describe('json_body work is bounded (issue 31)', () => {
  const nest = (depth: number, leaf: unknown = 'x'): unknown => {
    let v = leaf
    for (let i = 0; i < depth; i++) v = [v]
    return v
  }

  it('a query that would read more than 10,000 nodes stops and fails, whatever its comparison', () => {
    // each [0,0,…] segment multiplies the node list by eight: 8^20 nodes without a cap
    const path = '$' + '[0,0,0,0,0,0,0,0]'.repeat(20)
    for (const comparison of ['is_empty', 'not_empty'] as const)
      expect(json(path, comparison, nest(25))).toMatchObject({
        passed: false,
        actual: `JSONPath visited more than ${MAX_NODES.toLocaleString('en-US')} nodes`,
      })
    // evaluated directly (the contract refuses it at input), `..*` four times stops too
    expect(json('$..*..*..*..x', 'is_empty', nest(45)).actual).toMatch(/visited more than 10,000 nodes/)
  })

  it('reads within the cap are answered, and the cap is per query', () => {
    const doc = { items: Array.from({ length: 1000 }, (_, i) => ({ name: `n${i}` })) }
    const results = evaluateAssertions(
      [
        { source: 'json_body', property: '$..name', comparison: 'contains', target: 'n999' },
        { source: 'json_body', property: '$.items[*].name', comparison: 'contains', target: 'n0' },
      ],
      subject(doc),
    )
    expect(results.map((r) => r.passed)).toEqual([true, true])
  })

  it('the assertions of one run share 25,000 nodes, so twenty cost at most two and a half times one', () => {
    const path = '$' + '[0,0,0,0,0,0,0,0]'.repeat(20)
    const results = evaluateAssertions(
      [
        ...Array.from({ length: 3 }, () => ({
          source: 'json_body' as const,
          property: path,
          comparison: 'is_empty' as const,
        })),
        { source: 'json_body', property: '$[0][0]', comparison: 'not_empty' },
      ],
      subject(nest(25)),
    )
    expect(results.map((r) => r.passed)).toEqual([false, false, false, false])
    expect(results[0].actual).toBe('JSONPath visited more than 10,000 nodes')
    expect(results[2].actual).toMatch(/more than 5,000 nodes: this run's assertions had spent the rest/)
    expect(results[3].actual).toMatch(/this run's assertions had spent the rest/)
  })

  it("match() runs in linear time: '^(a+)+$' on a long 'aaa…a!' answers (a backtracking engine never would)", () => {
    const doc = ['a'.repeat(20_000) + '!', 'aaaa']
    expect(json("$[?match(@, '^(a+)+$')]", 'equals', doc, 'aaaa').passed).toBe(true)
    expect(json("$[?search(@, '(a|aa)+b')]", 'is_empty', doc).passed).toBe(true)
    expect(json("$[?match(@, '(a*)*b')]", 'is_empty', doc).passed).toBe(true)
  })

  it('regular-expression work is charged by pattern size × text and stops past its cap', () => {
    const big = 'a'.repeat(200_000)
    const r = json("$[?match(@, '[a-z]{1,1000}[a-z]{1,1000}!')]", 'is_empty', [big])
    expect(r.passed).toBe(false)
    expect(r.actual).toMatch(/match\(\)\/search\(\) needed more than 2,000,000 steps/)
    // a pattern from the document is compiled only up to 1,000 characters
    expect(json('$[?match(@.v, @.p)]', 'is_empty', [{ v: 'x', p: 'x'.repeat(1001) }]).actual).toMatch(
      /pattern longer than 1000 characters/,
    )
  })

  it('what a path selects is held to 1 MiB of JSON, each duplicate counted', () => {
    const r = json('$[0,0,0,0,0,0]', 'contains', ['b'.repeat(200_000)], 'zzz')
    expect(r).toMatchObject({ passed: false, actual: 'JSONPath selected more than 1024 KiB of JSON' })
  })

  it('a path with more than two descendant segments is refused as input, naming property', () => {
    const bad = (property: string) =>
      Assertion.safeParse({ source: 'json_body', property, comparison: 'not_empty' }).error?.issues[0]
    expect(bad('$..*..*..*..x')).toMatchObject({
      path: ['property'],
      message: expect.stringMatching(/4 descendant segments/),
    })
    expect(bad('$..a..b..c')?.path).toEqual(['property'])
    expect(bad('$..a..b')).toBeUndefined()
    // `..` inside a name is not a segment
    expect(bad("$..a['..b..']")).toBeUndefined()
  })
})
