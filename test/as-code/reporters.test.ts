import { XMLParser } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { junitXml } from '../../src/as-code/reporters.js'
import type { TestReport } from '../../src/as-code/test-run.js'

const base = { health_score: 80, response_time_ms: 12, check_id: null, duration_ms: 1500, error: null }
const report: TestReport = {
  file: 'sitehealth.yaml',
  passed: 1,
  failed: 1,
  errors: 1,
  tests: [
    { ...base, ref: 'home', name: 'Home', url: 'https://a.test/', outcome: 'passed', failures: [] },
    {
      ...base,
      ref: 'api',
      name: 'API <v2>',
      url: 'https://a.test/api?x=1&y=2',
      outcome: 'failed',
      failures: [
        { assertion: 'status_code equals 200', expected: '200', actual: '503' },
        { assertion: 'text_body contains "ok"', expected: 'contains "ok"', actual: '"<html>\u0000down"' },
        { assertion: 'min_score', expected: 'health_score >= 90', actual: '80' },
      ],
    },
    {
      ...base,
      ref: 'gone',
      name: 'Gone',
      url: 'http://127.0.0.1:9/',
      outcome: 'error',
      failures: [],
      error: 'Connection refused.',
    },
  ],
}

describe('junitXml', () => {
  const parse = (xml: string) =>
    new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => ['testcase', 'failure'].includes(name),
    }).parse(xml)

  it('writes one testsuite, one testcase per monitor and one <failure> per failed assertion', () => {
    const xml = parse(junitXml(report))
    const suite = xml.testsuites.testsuite
    expect(suite['@_tests']).toBe('3')
    expect(suite['@_failures']).toBe('1')
    expect(suite['@_errors']).toBe('1')
    expect(suite.testcase).toHaveLength(3)
    const [home, api, gone] = suite.testcase
    expect(home.failure).toBeUndefined()
    expect(api['@_name']).toBe('api https://a.test/api?x=1&y=2')
    expect(api.failure.map((f: any) => f['@_message'])).toEqual([
      'status_code equals 200: expected 200, actual 503',
      'text_body contains "ok": expected contains "ok", actual "<html>down"',
      'min_score: expected health_score >= 90, actual 80',
    ])
    expect(api.failure[0]['#text']).toBe('assertion: status_code equals 200\nexpected: 200\nactual: 503')
    expect(gone.error['@_message']).toBe('Connection refused.')
    expect(gone.error['@_type']).toBe('check_failed')
  })

  it('escapes what sites send and drops characters XML cannot hold', () => {
    const xml = junitXml(report)
    expect(xml).not.toContain('\u0000')
    expect(xml).toContain('&lt;html&gt;')
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)
  })
})
