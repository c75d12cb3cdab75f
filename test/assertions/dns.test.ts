/** dns_answer and packet_loss assertions (src/assertions/dns.ts, evaluate.ts) on a run's answers. */
import { describe, expect, it } from 'vitest'
import { evaluateAssertions, type AssertionSubject } from '../../src/assertions/index.js'
import { parseAssertion } from '../../src/assertions/text.js'
import { Assertion } from '../../src/contract/monitoring.js'

const subject = (over: Partial<AssertionSubject>): AssertionSubject => ({
  status_code: null,
  response_time_ms: null,
  body: null,
  headers: {},
  health_score: null,
  certificate_days: null,
  ...over,
})
const passed = (line: string, over: Partial<AssertionSubject>) =>
  evaluateAssertions([parseAssertion(line)], subject(over))[0]

describe('dns_answer', () => {
  const answers = ['10 mail.example.com', '93.184.216.34']
  it('contains a whole record (not a piece of one), ignoring case and a final dot', () => {
    expect(passed('dns_answer contains 93.184.216.34', { dns_answers: answers }).passed).toBe(true)
    expect(passed('dns_answer contains 3.184.216.34', { dns_answers: answers }).passed).toBe(false)
    expect(passed('dns_answer contains "10 Mail.Example.com."', { dns_answers: answers }).passed).toBe(true)
    expect(passed('dns_answer not_contains 1.2.3.4', { dns_answers: answers }).passed).toBe(true)
    expect(passed('dns_answer not_contains 93.184.216.34', { dns_answers: answers }).passed).toBe(false)
  })

  it('equals the whole set in any order, and says what it saw', () => {
    const r = passed('dns_answer equals "93.184.216.34, 10 mail.example.com"', { dns_answers: answers })
    expect(r.passed).toBe(true)
    expect(r.actual).toBe('10 mail.example.com, 93.184.216.34')
    expect(passed('dns_answer equals 93.184.216.34', { dns_answers: answers }).passed).toBe(false)
  })

  it('is_empty and not_empty; a failed query (null) contains nothing', () => {
    expect(passed('dns_answer is_empty', { dns_answers: [] }).passed).toBe(true)
    expect(passed('dns_answer not_empty', { dns_answers: [] }).passed).toBe(false)
    expect(passed('dns_answer not_empty', { dns_answers: answers }).passed).toBe(true)
    expect(passed('dns_answer not_contains 1.2.3.4', { dns_answers: null }).passed).toBe(false)
  })

  it('refuses comparisons a list has not', () => {
    for (const comparison of ['less_than', 'greater_than', 'not_equals']) {
      const r = Assertion.safeParse({ source: 'dns_answer', comparison, target: '1' })
      expect(r.success).toBe(false)
      expect(r.error?.issues[0].path).toEqual(['comparison'])
    }
  })
})

describe('packet_loss', () => {
  it('compares as a number and cannot contain', () => {
    expect(passed('packet_loss less_than 50', { packet_loss: 33.3 }).passed).toBe(true)
    expect(passed('packet_loss equals 0', { packet_loss: 0 }).passed).toBe(true)
    expect(passed('packet_loss less_than 50', { packet_loss: 100 }).passed).toBe(false)
    expect(Assertion.safeParse({ source: 'packet_loss', comparison: 'contains', target: 1 }).success).toBe(
      false,
    )
  })
})
