/**
 * `test`: every URL monitor of the file checked once now through the API (1 credit each, in
 * batches through `run-batch`), judged by its assertions (the server judges them on what the check
 * fetched, as it judges a monitor's runs) and its `alerts.min_score`. Exit 0 all pass, 3 a monitor failed, 7 a site
 * could not be checked (that wins: the verdict on it is unknown).
 */
import { describeAssertion } from '../assertions/index.js'
import { ApiError, type SitehealthClient } from '../client/client.js'
import type { ErrorEnvelope, RunResult } from '../contract/schemas.js'
import { typeFace } from '../contract/monitor-types/index.js'
import type { Loaded } from './load.js'

export interface TestFailure {
  assertion: string
  expected: string
  actual: string
}

export interface TestCase {
  ref: string
  name: string
  url: string
  outcome: 'passed' | 'failed' | 'error'
  health_score: number | null
  response_time_ms: number | null
  check_id: string | null
  duration_ms: number
  failures: TestFailure[]
  error: string | null
}

export interface TestReport {
  file: string
  passed: number
  failed: number
  errors: number
  tests: TestCase[]
}

/** Monitors sent in one run-batch request: a few requests for a whole file, with progress between. */
export const TEST_BATCH = 25

export function exitCodeOf(r: TestReport): number {
  return r.errors > 0 ? 7 : r.failed > 0 ? 3 : 0
}

type Todo = Loaded['monitors'][number]

/** A monitor's test case from its check's answer in the batch. */
function caseOf(m: Todo, answer: RunResult | ErrorEnvelope, durationMs: number): TestCase {
  const base = { ref: m.ref, name: m.name ?? m.ref, url: m.url!, duration_ms: durationMs }
  if (!answer.ok) {
    const { code, message, request_id } = answer.error
    // only a site that cannot be checked is a test error; no credits, a bad key… stop the run
    if (code !== 'check_failed') throw new ApiError(0, code, message, request_id)
    return {
      ...base,
      outcome: 'error',
      health_score: null,
      response_time_ms: null,
      check_id: null,
      failures: [],
      error: message,
    }
  }
  const failures: TestFailure[] = (answer.data.assertions ?? [])
    .filter((a) => !a.passed)
    .map((a) => ({
      assertion: describeAssertion(a),
      expected: `${a.comparison.replace(/_/g, ' ')}${a.target === null ? '' : ` ${a.target}`}`,
      actual: a.actual === null ? 'nothing' : JSON.stringify(a.actual),
    }))
  const min = m.alerts?.min_score
  if (min !== undefined && min !== null && answer.data.healthScore < min)
    failures.push({
      assertion: 'min_score',
      expected: `health_score >= ${min}`,
      actual: String(answer.data.healthScore),
    })
  return {
    ...base,
    outcome: failures.length ? 'failed' : 'passed',
    health_score: answer.data.healthScore,
    response_time_ms: answer.data.checks.reachability.responseTimeMs ?? null,
    check_id: answer.data.id,
    failures,
    error: null,
  }
}

export async function runTests(
  client: SitehealthClient,
  loaded: Loaded,
  opts: { grep?: string; onProgress?: (done: number, total: number, t: TestCase) => void },
): Promise<TestReport> {
  let pattern: RegExp | undefined
  if (opts.grep) pattern = new RegExp(opts.grep, 'i')
  const todo = loaded.monitors.filter(
    (m) => typeFace(m.type).url && (!pattern || pattern.test(m.ref) || pattern.test(m.name ?? '')),
  )
  // in batches through run-batch: one request each against the run limit (40 monitors once
  // waited out that limit nine times), the server running each batch within the user's check slots
  const tests: TestCase[] = []
  for (let at = 0; at < todo.length; at += TEST_BATCH) {
    const batch = todo.slice(at, at + TEST_BATCH)
    const started = Date.now()
    const { results } = await client.runBatch(
      batch.map((m) => ({ url: m.url!, ...(m.assertions?.length ? { assertions: m.assertions } : {}) })),
    )
    // each case gets its share of the batch's time, so a report's total is the time it took
    const share = Math.round((Date.now() - started) / batch.length)
    batch.forEach((m, i) => {
      tests.push(caseOf(m, results[i], share))
      opts.onProgress?.(tests.length, todo.length, tests[tests.length - 1])
    })
  }
  return {
    file: loaded.file,
    passed: tests.filter((t) => t.outcome === 'passed').length,
    failed: tests.filter((t) => t.outcome === 'failed').length,
    errors: tests.filter((t) => t.outcome === 'error').length,
    tests,
  }
}
