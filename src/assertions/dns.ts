/**
 * `dns_answer` assertions (docs/monitoring.md#dns-monitors): a dns run's answers are a set of
 * records, so `contains` asks for one record (not a piece of one: `1.2.3.4` must not match
 * `11.2.3.45`), `equals` for the whole set (the target's records comma-separated, in any order),
 * `is_empty` for none. Records compare without case and without a final dot, as names do.
 */
import type { Assertion } from '../contract/monitoring.js'

const norm = (record: string) => record.trim().replace(/\.$/, '').toLowerCase()

/** The target's records: one, or for equals several, comma-separated. */
const recordsOf = (target: Assertion['target']) =>
  String(target ?? '')
    .split(',')
    .map(norm)
    .filter(Boolean)

/** Judges a dns_answer assertion on the run's answers (null: the query gave none). */
export function judgeAnswers(a: Assertion, answers: string[] | null): boolean {
  const have = (answers ?? []).map(norm)
  switch (a.comparison) {
    case 'is_empty':
      return have.length === 0
    case 'not_empty':
      return have.length > 0
    case 'contains':
      return answers !== null && have.includes(norm(String(a.target ?? '')))
    case 'not_contains':
      return answers !== null && !have.includes(norm(String(a.target ?? '')))
    case 'equals': {
      const want = new Set(recordsOf(a.target))
      const got = new Set(have)
      return answers !== null && want.size === got.size && [...want].every((r) => got.has(r))
    }
    default:
      return false
  }
}
