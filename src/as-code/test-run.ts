/**
 * `test`: every URL monitor of the file checked once now through the API (1 credit each, a few
 * at a time), judged by its assertions (the server judges them on what the check fetched, as it
 * judges a monitor's runs) and its `alerts.min_score`. Exit 0 all pass, 3 a monitor failed, 7 a site
 * could not be checked (that wins: the verdict on it is unknown).
 */
import { describeAssertion } from '../assertions/index.js'
import { ApiError, type SitehealthClient } from '../client/client.js'
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

export const TEST_CONCURRENCY = 3

export function exitCodeOf(r: TestReport): number {
  return r.errors > 0 ? 7 : r.failed > 0 ? 3 : 0
}

async function runOne(client: SitehealthClient, m: Loaded['monitors'][number]): Promise<TestCase> {
  const started = Date.now()
  const base = { ref: m.ref, name: m.name ?? m.ref, url: m.url! }
  try {
    const r = await client.runCheck(m.url!, { assertions: m.assertions })
    const failures: TestFailure[] = (r.data.assertions ?? [])
      .filter((a) => !a.passed)
      .map((a) => ({
        assertion: describeAssertion(a),
        expected: `${a.comparison.replace(/_/g, ' ')}${a.target === null ? '' : ` ${a.target}`}`,
        actual: a.actual === null ? 'nothing' : JSON.stringify(a.actual),
      }))
    const min = m.alerts?.min_score
    if (min !== undefined && min !== null && r.data.healthScore < min)
      failures.push({
        assertion: 'min_score',
        expected: `health_score >= ${min}`,
        actual: String(r.data.healthScore),
      })
    const d = r.data as { id?: string }
    return {
      ...base,
      outcome: failures.length ? 'failed' : 'passed',
      health_score: r.data.healthScore,
      response_time_ms: r.data.checks.reachability.responseTimeMs ?? null,
      check_id: d.id ?? null,
      duration_ms: Date.now() - started,
      failures,
      error: null,
    }
  } catch (err) {
    // only a site that cannot be checked is a test error; no credits, a bad key… stop the run
    if (!(err instanceof ApiError) || err.code !== 'check_failed') throw err
    return {
      ...base,
      outcome: 'error',
      health_score: null,
      response_time_ms: null,
      check_id: null,
      duration_ms: Date.now() - started,
      failures: [],
      error: err.message,
    }
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
  const tests: TestCase[] = new Array(todo.length)
  let next = 0
  let done = 0
  const worker = async () => {
    while (next < todo.length) {
      const i = next++
      tests[i] = await runOne(client, todo[i])
      opts.onProgress?.(++done, todo.length, tests[i])
    }
  }
  await Promise.all(Array.from({ length: Math.min(TEST_CONCURRENCY, todo.length) }, worker))
  return {
    file: loaded.file,
    passed: tests.filter((t) => t.outcome === 'passed').length,
    failed: tests.filter((t) => t.outcome === 'failed').length,
    errors: tests.filter((t) => t.outcome === 'error').length,
    tests,
  }
}
