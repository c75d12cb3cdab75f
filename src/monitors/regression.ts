/**
 * Regressions against the monitor's own history (docs/decisions.md#monitoring-depth):
 * `score.regressed` when a run's health score is 15+ points below the median of the last 7 days,
 * `response_time.regressed` when the p95 response time of the last hour is over twice the 7-day
 * p95; each needs 20 runs to judge by, is announced once per episode and cleared when back within
 * bounds. While one is open the monitor is degraded (judge.ts).
 *
 * The history is a small sketch kept in the monitor's memory (RegressionSketch, persisted with the
 * monitor on every backend): per UTC day, today and the 7 before, a count per health score
 * (0–100, exact) and per response-time bin (10 % wide, so the 7-day p95 is within 5 %; flat [value, runs] pairs), and the
 * last hour's response times (at most 120). A run costs O(bins) and no query. Only good runs
 * (answered, reachable, assertions held) outside maintenance windows go in: an outage or a
 * maintenance does not move the baseline. Pure; it updates the memory it is given.
 */
import type { LastCheck } from '../contract/monitors.js'
import type { MonitorMemory, RegressionSketch } from '../store/monitors.js'
import type { RaisedEvent } from './judge.js'

/** Runs needed in the 7 days (and, for response time, in the last hour) to judge by. */
export const REGRESSION_MIN_RUNS = 20
/** Points below the 7-day median that make a score regression. */
export const SCORE_DROP = 15
/** The last hour's p95 over this many times the 7-day p95 is a response-time regression. */
export const RESPONSE_TIME_FACTOR = 2
/** Whole UTC days before today kept in the sketch: the baseline spans 7 to 8 days. */
const WINDOW_DAYS = 7
const DAY_MS = 86_400_000
const HOUR_S = 3600
/** The newest runs of the last hour kept (a 30 s monitor's hour). */
const RECENT_MAX = 120
const BIN_BASE = 1.1
const LOG_BASE = Math.log(BIN_BASE)

/** The response-time bin of `ms`: 0 for 0 ms, then bins 10 % wide. */
export const rtBin = (ms: number): number => (ms < 1 ? 0 : 1 + Math.floor(Math.log(ms) / LOG_BASE))
/** What a bin stands for: its geometric middle, in whole ms. */
export const binMs = (b: number): number => (b <= 0 ? 0 : Math.round(BIN_BASE ** (b - 0.5)))

export interface Baseline {
  /** Good runs in the 7 days. */
  runs: number
  scoreMedian: number | null
  rtP95: number | null
}

/** Bins counted: up to about 3 minutes, past any check's timeout. */
const BINS = 128

/** The value at 0-based `rank` of counts indexed by value. */
function atRank(counts: Float64Array, rank: number): number {
  let seen = 0
  for (let v = 0; v < counts.length; v++) {
    seen += counts[v]
    if (seen > rank) return v
  }
  return counts.length - 1
}

/** Adds flat [value, count, …] pairs into counts indexed by value; returns the runs added. */
function addPairs(counts: Float64Array, pairs: unknown): number {
  if (!Array.isArray(pairs)) return 0 // a sketch of another shape: judged as empty
  let n = 0
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const v = Math.min(Math.max(0, pairs[i] as number), counts.length - 1)
    counts[v] += pairs[i + 1] as number
    n += pairs[i + 1] as number
  }
  return n
}

/** The 7-day median score and p95 response time of a sketch, at `now`: O(days × bins). */
export function baseline(sk: RegressionSketch | undefined, now: number): Baseline {
  const from = Math.floor(now / DAY_MS) - WINDOW_DAYS
  const scores = new Float64Array(101)
  const bins = new Float64Array(BINS)
  let runs = 0
  for (const day of sk?.days ?? []) {
    if (day.d < from) continue
    runs += addPairs(scores, day.s)
    addPairs(bins, day.r)
  }
  if (runs === 0) return { runs, scoreMedian: null, rtP95: null }
  const median = (atRank(scores, Math.floor((runs - 1) / 2)) + atRank(scores, Math.floor(runs / 2))) / 2
  return { runs, scoreMedian: median, rtP95: binMs(atRank(bins, Math.ceil(0.95 * runs) - 1)) }
}

/** Nearest-rank p95 of some response times. */
export function p95(values: number[]): number {
  const sorted = Float64Array.from(values).sort()
  return sorted[Math.ceil(0.95 * sorted.length) - 1]
}

/** Flat [value, count, …] pairs with one more run of `value`. */
function bump(pairs: unknown, value: number): number[] {
  const out = Array.isArray(pairs) ? (pairs as number[]).slice() : []
  for (let i = 0; i + 1 < out.length; i += 2)
    if (out[i] === value) {
      out[i + 1]++
      return out
    }
  out.push(value, 1)
  return out
}

/** The sketch with one more good run. */
export function addRun(
  sk: RegressionSketch | undefined,
  now: number,
  score: number,
  ms: number,
): RegressionSketch {
  const d = Math.floor(now / DAY_MS)
  const sec = Math.floor(now / 1000)
  const days = sk?.days ?? []
  const cur = days.find((x) => x.d === d)
  const today = { d, s: bump(cur?.s, score), r: bump(cur?.r, Math.min(rtBin(ms), BINS - 1)) }
  return {
    days: [...days.filter((x) => x.d >= d - WINDOW_DAYS && x.d !== d), today].sort((a, b) => a.d - b.d),
    recent: [
      ...(sk?.recent ?? []).filter(([t]) => t > sec - HOUR_S && t <= sec),
      [sec, ms] as [number, number],
    ].slice(-RECENT_MAX),
  }
}

const num = (n: number) => (Number.isInteger(n) ? n : Math.round(n * 10) / 10).toLocaleString('en-US')

/**
 * Judges a good run against the history before it, then adds it. Raises `score.regressed` and
 * `response_time.regressed` when an episode opens; returns why the monitor is degraded by a
 * regression (its words), or null when none is open. Runs without a response time (heartbeats)
 * judge nothing.
 */
export function judgeRegressions(
  url: string,
  check: LastCheck,
  memory: MonitorMemory,
  events: RaisedEvent[],
  now: number,
): string | null {
  const ms = check.response_time_ms
  if (typeof ms !== 'number') return null
  const base = baseline(memory.regression, now)
  memory.regression = addRun(memory.regression, now, check.health_score, ms)
  const enough = base.runs >= REGRESSION_MIN_RUNS
  const reasons: string[] = []

  const score = check.health_score
  const drop = base.scoreMedian === null ? 0 : base.scoreMedian - score
  const scoreRegressed = enough && drop >= SCORE_DROP
  if (scoreRegressed) {
    const words = `is ${num(drop)} points below its 7-day median of ${num(base.scoreMedian!)}`
    if (!memory.score_regressed)
      events.push({ event: 'score.regressed', message: `Health score ${score} of ${url} ${words}` })
    reasons.push(`its health score ${score} ${words}`)
  }
  memory.score_regressed = scoreRegressed

  const recent = memory.regression.recent
  const hour = recent.length >= REGRESSION_MIN_RUNS ? p95(recent.map(([, v]) => v)) : null
  const rtRegressed = enough && hour !== null && hour > RESPONSE_TIME_FACTOR * base.rtP95!
  if (rtRegressed) {
    const words = `over the last hour, ${num(hour)} ms, is over twice its 7-day p95 of ${num(base.rtP95!)} ms`
    if (!memory.response_time_regressed)
      events.push({ event: 'response_time.regressed', message: `The p95 response time of ${url} ${words}` })
    reasons.push(`its p95 response time ${words}`)
  }
  memory.response_time_regressed = rtRegressed
  return reasons.length > 0 ? reasons.join('; ') : null
}
