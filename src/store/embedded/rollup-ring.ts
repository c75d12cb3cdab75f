/**
 * One ring of a monitor's rollup buckets on the embedded store (history.ts): slot = bucket number
 * mod size. The slots of the `size` buckets up to the newest (`top`) hold those buckets; a slot is
 * reset when the newest moves past it, so no slot needs to say which bucket it holds, and a bucket
 * is held when a run was rolled into it (runs or excluded runs above 0).
 *
 * The counters are kept as narrow as their values allow (issue 23: at 10,000 monitors the rings
 * were 41 KB each, 410 MB): three groups, the four run counts, the health and downtime sums, and
 * the response-time sums, each a typed array that starts at 8 bits a value and is made wider (16,
 * 32 bits, then a double) the first time a value does not fit. A 60 s monitor's hourly ring ends
 * at 8-bit counts, 16-bit sums and 32-bit response times, 12 bytes a slot where it was 36.
 */
import { BUCKET_MS, keptFrom, type Contribution } from '../rules/buckets.js'
import type { RollupBucket, RollupGranularity } from '../history.js'

type Column = Uint8Array | Uint16Array | Uint32Array | Float64Array

const RUNS = 0
const FAILED = 1
const EXCLUDED = 2
const SAVED = 3
/** Counts a slot, then sums a slot (health, downtime). */
const C = 4
const HEALTH = 0
const DOWN = 1
const S = 2

/** A column of `n` values, the narrowest that holds `max` (and fractions, when it has one). */
function column(max: number, n: number): Column {
  if (!Number.isInteger(max) || max > 0xffffffff) return new Float64Array(n)
  return max > 0xffff ? new Uint32Array(n) : max > 0xff ? new Uint16Array(n) : new Uint8Array(n)
}

/** `a` made wide enough for `v` (a copy when it was not). */
function fit(a: Column, v: number): Column {
  if (a instanceof Float64Array) return a
  const max = a instanceof Uint8Array ? 0xff : a instanceof Uint16Array ? 0xffff : 0xffffffff
  if (Number.isInteger(v) && v <= max) return a
  const b = column(v, a.length)
  b.set(a)
  return b
}

/** The ring's counters in the wide form of history.bin (`idx`: the bucket each slot holds, -1: none). */
export interface WideRing {
  idx: Int32Array
  /** Runs, failed, excluded, saved, health sum, downtime, 6 a slot. */
  n: Uint32Array
  rt: Float64Array
}

/** The counters of history.bin's wide form a slot. */
export const WIDE_FIELDS = 6

export class RollupRing {
  private c: Column
  private s: Column
  private rt: Column
  /** The newest bucket number held (-1: none). */
  top = -1

  constructor(
    readonly size: number,
    readonly g: RollupGranularity,
  ) {
    this.c = new Uint8Array(size * C)
    this.s = new Uint8Array(size * S)
    this.rt = new Uint8Array(size)
  }

  /** Bytes of the counters (tests). */
  get bytes(): number {
    return this.c.byteLength + this.s.byteLength + this.rt.byteLength
  }

  /** The slot of bucket `b` when the ring holds it, else -1. */
  private slotOf(b: number): number {
    if (b > this.top || b <= this.top - this.size || b < 0) return -1
    const s = b % this.size
    return this.c[s * C + RUNS] > 0 || this.c[s * C + EXCLUDED] > 0 ? s : -1
  }

  private addC(o: number, v: number): void {
    const x = this.c[o] + v
    this.c = fit(this.c, x)
    this.c[o] = x
  }

  private addS(o: number, v: number): void {
    const x = this.s[o] + v
    this.s = fit(this.s, x)
    this.s[o] = x
  }

  /** Adds runs and failed runs of `runs.length` buckets from bucket `first` to `runs` and `failed`. */
  counts(first: number, runs: Uint32Array, failed: Uint32Array): void {
    const oldest = Math.ceil(keptFrom(this.g, Date.now()) / BUCKET_MS[this.g])
    for (let i = 0; i < runs.length; i++) {
      const b = first + i
      const s = b < oldest ? -1 : this.slotOf(b)
      if (s < 0) continue
      runs[i] += this.c[s * C + RUNS]
      failed[i] += this.c[s * C + FAILED]
    }
  }

  /** Runs and failed runs of buckets [first, end), by arithmetic over at most `size` slots. */
  sum(first: number, end: number): [number, number] {
    let runs = 0
    let failed = 0
    for (let b = Math.max(first, end - this.size, 0); b < end; b++) {
      const s = this.slotOf(b)
      if (s < 0) continue
      runs += this.c[s * C + RUNS]
      failed += this.c[s * C + FAILED]
    }
    return [runs, failed]
  }

  /** Makes `b` the newest bucket, resetting the slots of the buckets it passes. */
  private advance(b: number): void {
    const from = Math.max(this.top + 1, b - this.size + 1)
    for (let x = from; x <= b; x++) {
      const s = x % this.size
      this.c.fill(0, s * C, s * C + C)
      this.s.fill(0, s * S, s * S + S)
      this.rt[s] = 0
    }
    this.top = b
  }

  /** Adds a run's contribution (rules/buckets.ts) to the bucket of `ms`. */
  add(ms: number, c: Contribution): void {
    const b = Math.floor(ms / BUCKET_MS[this.g])
    if (b < 0 || b <= this.top - this.size) return // older than the ring reaches
    if (b > this.top) this.advance(b)
    const slot = b % this.size
    const o = slot * C
    if (c.runs) this.addC(o + RUNS, c.runs)
    if (c.failed_runs) this.addC(o + FAILED, c.failed_runs)
    if (c.excluded_runs) this.addC(o + EXCLUDED, c.excluded_runs)
    if (c.saved_runs) this.addC(o + SAVED, c.saved_runs)
    if (c.health_sum) this.addS(slot * S + HEALTH, c.health_sum)
    if (c.downtime_seconds) this.addS(slot * S + DOWN, c.downtime_seconds)
    if (c.response_ms_sum) {
      const x = this.rt[slot] + c.response_ms_sum
      this.rt = fit(this.rt, x)
      this.rt[slot] = x
    }
  }

  private bucket(b: number, slot: number): RollupBucket {
    const o = slot * C
    return {
      granularity: this.g,
      start: b * BUCKET_MS[this.g],
      runs: this.c[o + RUNS],
      failed_runs: this.c[o + FAILED],
      excluded_runs: this.c[o + EXCLUDED],
      saved_runs: this.c[o + SAVED],
      response_ms_sum: this.rt[slot],
      health_sum: this.s[slot * S + HEALTH],
      downtime_seconds: this.s[slot * S + DOWN],
    }
  }

  /** Buckets starting in [fromMs, toMs), oldest first; none past retention. */
  range(fromMs: number, toMs: number): RollupBucket[] {
    const out: RollupBucket[] = []
    const size = BUCKET_MS[this.g]
    fromMs = Math.max(fromMs, keptFrom(this.g, Date.now()))
    const first = Math.max(Math.ceil(fromMs / size), this.top - this.size + 1, 0)
    const end = Math.min(Math.ceil(toMs / size), this.top + 1)
    for (let b = first; b < end; b++) {
      const s = this.slotOf(b)
      if (s >= 0) out.push(this.bucket(b, s))
    }
    return out
  }

  /** The counters as history.bin holds them, in `w` when given (reused: a fold writes 10,000 rings). */
  wide(w?: WideRing): WideRing {
    if (w && w.rt.length === this.size) {
      w.idx.fill(-1)
      w.n.fill(0)
      w.rt.fill(0)
    } else
      w = {
        idx: new Int32Array(this.size).fill(-1),
        n: new Uint32Array(this.size * WIDE_FIELDS),
        rt: new Float64Array(this.size),
      }
    for (let b = Math.max(this.top - this.size + 1, 0); b <= this.top; b++) {
      const s = this.slotOf(b)
      if (s < 0) continue
      w.idx[s] = b
      for (let k = 0; k < C; k++) w.n[s * WIDE_FIELDS + k] = this.c[s * C + k]
      w.n[s * WIDE_FIELDS + 4] = this.s[s * S + HEALTH]
      w.n[s * WIDE_FIELDS + 5] = this.s[s * S + DOWN]
      w.rt[s] = this.rt[s]
    }
    return w
  }

  /**
   * A ring from history.bin's wide form (a slot holding a bucket the newest has passed is left
   * out), each column made as wide as its largest value at once (no garbage of narrower ones).
   */
  static fromWide(size: number, g: RollupGranularity, w: WideRing): RollupRing {
    const r = new RollupRing(size, g)
    for (const b of w.idx) if (b > r.top) r.top = b
    const kept: number[] = []
    let c = 0
    let sums = 0
    let rt = 0
    for (let s = 0; s < size; s++) {
      const b = w.idx[s]
      if (b < 0 || b <= r.top - size || b % size !== s) continue
      kept.push(s)
      const o = s * WIDE_FIELDS
      c = Math.max(c, w.n[o], w.n[o + 1], w.n[o + 2], w.n[o + 3])
      sums = Math.max(sums, w.n[o + 4], w.n[o + 5])
      if (!Number.isInteger(w.rt[s])) rt = 0.5
      else if (rt !== 0.5) rt = Math.max(rt, w.rt[s])
    }
    r.c = column(c, size * C)
    r.s = column(sums, size * S)
    r.rt = column(rt, size)
    for (const s of kept) {
      const o = s * WIDE_FIELDS
      for (let k = 0; k < C; k++) r.c[s * C + k] = w.n[o + k]
      r.s[s * S + HEALTH] = w.n[o + 4]
      r.s[s * S + DOWN] = w.n[o + 5]
      r.rt[s] = w.rt[s]
    }
    return r
  }
}
