/**
 * Assertions judged on an answer already fetched (docs/decisions.md#monitoring-depth): a pure function of the
 * assertion list and an AssertionSubject, so the server (a monitor's run) and the CLI
 * (`sitehealth test`, on a run it asked for) judge alike. Nothing here touches the network.
 *
 * JSONPath is RFC 9535 with bounded work (./jsonpath.ts); what it selects is held to
 * MAX_RESULT_CHARS of JSON, so comparing it is bounded too. An assertion that cannot be evaluated
 * (a path past a limit) fails, whatever its comparison, and says why in `actual`.
 */
import { queryJson, RunAllowance } from './jsonpath.js'
import { judgeAnswers } from './dns.js'
import {
  NUMERIC_SOURCES,
  type Assertion,
  type AssertionActual,
  type AssertionResult,
} from '../contract/monitoring.js'

/** What a run saw, reduced to what assertions read. */
export interface AssertionSubject {
  /** HTTP status of the final response; null when there was none. */
  status_code: number | null
  /** Time to first byte, ms. */
  response_time_ms: number | null
  /** The decoded body as the probe kept it (up to its cap); null when none was kept. */
  body: string | null
  /** Lowercase names. */
  headers: Record<string, string>
  health_score: number | null
  /** Days until the certificate expires; null for plain http. */
  certificate_days: number | null
  /** A dns run's answers, sorted; null when it had none to give (the query failed). */
  dns_answers?: string[] | null
  /** A ping run's packet loss, percent. */
  packet_loss?: number | null
}

const ACTUAL_MAX = 200
/** The most JSON text a json_body assertion compares (duplicates counted each time). */
export const MAX_RESULT_CHARS = 1024 * 1024

/** Why an assertion could not be judged at all; it fails whatever its comparison. */
class Unjudgeable {
  constructor(readonly reason: string) {}
}

/** The value a JSONPath selects: nothing, one value, or the list; too much text is Unjudgeable. */
function selected(path: string, doc: unknown, run: RunAllowance): unknown {
  const found = queryJson(path, doc, run)
  if (!found.ok) return new Unjudgeable(found.error)
  let chars = 0
  const sizes = new Map<unknown, number>()
  try {
    for (const v of found.values) {
      let size = sizes.get(v)
      if (size === undefined) sizes.set(v, (size = JSON.stringify(v).length))
      chars += size
      if (chars > MAX_RESULT_CHARS)
        return new Unjudgeable(`JSONPath selected more than ${MAX_RESULT_CHARS / 1024} KiB of JSON`)
    }
  } catch {
    return new Unjudgeable('JSONPath selected a value nested too deeply to compare')
  }
  if (found.values.length === 0) return null
  return found.values.length === 1 ? found.values[0] : found.values
}

/** The parsed body (parsed once per subject) and what its queries may still spend. */
interface JsonBody {
  parse: () => { ok: boolean; value: unknown }
  run: RunAllowance
}

/** Reads the value an assertion looks at. */
function valueOf(a: Assertion, s: AssertionSubject, body: JsonBody): unknown {
  switch (a.source) {
    case 'status_code':
      return s.status_code
    case 'response_time':
      return s.response_time_ms
    case 'health_score':
      return s.health_score
    case 'certificate_days':
      return s.certificate_days
    case 'dns_answer':
      return s.dns_answers ?? null
    case 'packet_loss':
      return s.packet_loss ?? null
    case 'text_body':
      return s.body
    case 'header':
      return s.headers[(a.property ?? '').toLowerCase()] ?? null
    case 'json_body': {
      const parsed = body.parse()
      return parsed.ok ? selected(a.property ?? '$', parsed.value, body.run) : null
    }
  }
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true
  if (typeof v === 'string') return v.trim() === ''
  if (Array.isArray(v)) return v.length === 0
  if (typeof v === 'object') return Object.keys(v).length === 0
  return false
}

function asText(v: unknown): string {
  if (typeof v === 'string') return v
  if (v === null || v === undefined) return ''
  return typeof v === 'object' ? JSON.stringify(v) : String(v)
}

function asNumber(v: unknown): number {
  if (typeof v === 'number') return v
  if (typeof v === 'string' && v.trim() !== '') return Number(v)
  return Number.NaN
}

function equal(v: unknown, target: string | number, numeric: boolean): boolean {
  if (v === null || v === undefined) return false
  if (numeric || typeof v === 'number') {
    const a = asNumber(v)
    const b = asNumber(target)
    if (Number.isFinite(a) && Number.isFinite(b)) return a === b
  }
  return asText(v).trim() === String(target).trim()
}

function contains(v: unknown, target: string | number): boolean {
  if (v === null || v === undefined) return false
  if (Array.isArray(v)) return v.some((x) => equal(x, target, false) || asText(x).includes(String(target)))
  return asText(v).includes(String(target))
}

function judge(a: Assertion, v: unknown): boolean {
  if (v instanceof Unjudgeable) return false
  if (a.source === 'dns_answer') return judgeAnswers(a, v as string[] | null)
  const numeric = NUMERIC_SOURCES.includes(a.source)
  const t = a.target ?? ''
  switch (a.comparison) {
    case 'is_empty':
      return isEmpty(v)
    case 'not_empty':
      return !isEmpty(v)
    case 'equals':
      return equal(v, t, numeric)
    case 'not_equals':
      return !equal(v, t, numeric)
    case 'greater_than':
    case 'less_than': {
      const x = asNumber(v)
      const y = asNumber(t)
      if (!Number.isFinite(x) || !Number.isFinite(y)) return false
      return a.comparison === 'greater_than' ? x > y : x < y
    }
    case 'contains':
      return contains(v, t)
    case 'not_contains':
      return !contains(v, t)
  }
}

/** What the result records as seen: JSON scalars, long text cut; a dns answer as its records, comma-separated. */
function actualOf(v: unknown): AssertionActual {
  if (v instanceof Unjudgeable) return v.reason
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return actualOf(v.join(', '))
  if (v === null || v === undefined) return null
  if (typeof v === 'number' || typeof v === 'boolean') return v
  const text = asText(v)
  return text.length > ACTUAL_MAX ? `${text.slice(0, ACTUAL_MAX)}…` : text
}

/** Judges every assertion on one answer, in order. */
export function evaluateAssertions(list: readonly Assertion[], s: AssertionSubject): AssertionResult[] {
  let parsed: { ok: boolean; value: unknown } | undefined
  const body: JsonBody = {
    parse: () => {
      if (!parsed) {
        try {
          parsed = s.body === null ? { ok: false, value: null } : { ok: true, value: JSON.parse(s.body) }
        } catch {
          parsed = { ok: false, value: null }
        }
      }
      return parsed
    },
    run: new RunAllowance(),
  }
  return list.map((a) => {
    const v = valueOf(a, s, body)
    return {
      source: a.source,
      property: a.property ?? null,
      comparison: a.comparison,
      target: a.target ?? null,
      passed: judge(a, v),
      actual: actualOf(v),
    }
  })
}

/** The first failed assertion, or undefined when all passed. */
export function firstFailure(results: readonly AssertionResult[]): AssertionResult | undefined {
  return results.find((r) => !r.passed)
}
