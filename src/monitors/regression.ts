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
 *
 * Stored packed (`packSketch`): one short base64 string of variable-length integers, about 500
 * characters for a week of a 60 s monitor instead of about 2,500 of JSON arrays, since the record
 * that carries it is written on every run. Sketches stored as JSON before are still read.
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
      [sec, Math.round(ms)] as [number, number],
    ].slice(-RECENT_MAX),
  }
}

/** The first byte of a packed sketch: its layout. */
const PACKED_V1 = 1

/** Writes varints (LEB128, 7 bits a byte) into a buffer that grows as needed (one, reused). */
class Writer {
  bytes = new Uint8Array(4096)
  at = 0

  varint(n: number): void {
    let v = n > 0 ? Math.round(n) : 0
    if (this.at + 8 > this.bytes.length) {
      const more = new Uint8Array(this.bytes.length * 2)
      more.set(this.bytes)
      this.bytes = more
    }
    while (v >= 0x80) {
      this.bytes[this.at++] = (v % 0x80) | 0x80
      v = Math.floor(v / 0x80)
    }
    this.bytes[this.at++] = v
  }

  pairs(pairs: unknown): void {
    const flat = Array.isArray(pairs) ? (pairs as number[]) : []
    const n = flat.length >> 1
    this.varint(n)
    for (let i = 0; i < 2 * n; i++) this.varint(flat[i])
  }
}

const writer = new Writer()

/** Zigzag, so small negative numbers stay short: 0, -1, 1, -2 → 0, 1, 2, 3. */
const zigzag = (n: number) => (n < 0 ? -2 * n - 1 : 2 * n)
const unzigzag = (n: number) => (n % 2 === 1 ? -(n + 1) / 2 : n / 2)

/**
 * The stored form of a sketch: base64 of [layout, days, then per day its number, score pairs and
 * response-time bin pairs, then the recent runs as (seconds since the one before, ms)], each a
 * varint. Response times are kept in whole ms.
 */
export function packSketch(sk: RegressionSketch): string {
  const w = writer
  w.at = 0
  w.bytes[w.at++] = PACKED_V1
  w.varint(sk.days.length)
  for (const day of sk.days) {
    w.varint(day.d)
    w.pairs(day.s)
    w.pairs(day.r)
  }
  w.varint(sk.recent.length)
  let prev = 0
  for (const [t, ms] of sk.recent) {
    w.varint(zigzag(t - prev))
    w.varint(ms)
    prev = t
  }
  return Buffer.from(w.bytes.buffer, 0, w.at).toString('base64')
}

/** Reads varints back; past the end it reads a truncation (`bad`). */
class Reader {
  at = 1
  bad = false

  constructor(private readonly b: Buffer) {}

  varint(): number {
    let v = 0
    let scale = 1
    const b = this.b
    while (this.at < b.length) {
      const byte = b[this.at++]
      v += (byte & 0x7f) * scale
      if (byte < 0x80) return v
      scale *= 0x80
    }
    this.bad = true
    return 0
  }

  pairs(): number[] {
    const n = Math.min(this.varint(), this.b.length)
    const flat = new Array<number>(2 * n)
    for (let i = 0; i < 2 * n; i++) flat[i] = this.varint()
    return flat
  }
}

/** A packed sketch read back; undefined for a string that is not one (judged as empty). */
function unpack(text: string): RegressionSketch | undefined {
  const b = Buffer.from(text, 'base64')
  if (b[0] !== PACKED_V1) return undefined
  const r = new Reader(b)
  const days: RegressionSketch['days'] = []
  for (let n = Math.min(r.varint(), b.length); n > 0; n--)
    days.push({ d: r.varint(), s: r.pairs(), r: r.pairs() })
  const recent: RegressionSketch['recent'] = []
  let t = 0
  for (let n = Math.min(r.varint(), b.length); n > 0; n--) {
    t += unzigzag(r.varint())
    recent.push([t, r.varint()])
  }
  return r.bad ? undefined : { days, recent }
}

/** The sketch of a monitor's memory, packed or in the JSON form of records stored before packing. */
export function readSketch(stored: MonitorMemory['regression']): RegressionSketch | undefined {
  if (typeof stored === 'string') return unpack(stored)
  if (stored && Array.isArray(stored.days) && Array.isArray(stored.recent)) return stored
  return undefined
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
  const before = readSketch(memory.regression)
  const base = baseline(before, now)
  const after = addRun(before, now, check.health_score, ms)
  memory.regression = packSketch(after)
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

  const recent = after.recent
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
