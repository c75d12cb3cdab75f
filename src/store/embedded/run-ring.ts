/**
 * A monitor's newest raw runs on the embedded store, which holds them in memory (issue 23: 10,000
 * monitors × 100 runs). As objects a run with three assertion results took ~690 bytes of heap
 * (its ids, times and enum values each a string of its own, every assertion an object); here a
 * ring of packed columns takes ~140: ids as four 32-bit words, times as epoch ms, numbers in a
 * Float64Array, repeated strings (outcome, state, location, error code and message, the assertions' own
 * definitions as one JSON text, text an assertion saw) shared through a counted table and held
 * by their numbers there, what each assertion saw as a kind and a number: no column is a JS array
 * (as pointers, the strings and results took ~90 bytes a run of V8's heap, which `serve` lets grow
 * to twice its live size between collections). A run is made back into its record only when it
 * is read, with the same keys in the same order.
 *
 * A run that does not fit the packed form exactly (an id that is not a lowercase UUID, a time that
 * is not `toISOString`'s, a field of another type, keys in another order) is kept as it came, so
 * what is read is always what was added.
 */
import type { RunRecord } from '../run-log.js'
import { getUuid, isoMs, putUuid, type SharedStrings } from './packed.js'

export { getUuid, isIso, isoMs, isUuid, putUuid, SharedStrings } from './packed.js'

const KEYS = [
  'id',
  'monitor_id',
  'location',
  'started_at',
  'outcome',
  'trigger',
  'check_id',
  'health_score',
  'response_time_ms',
  'state',
  'error',
  'assertions',
] as const
/**
 * String columns a slot holds: outcome, trigger, state, error code, error message, assertion
 * definitions, location.
 */
const S = 7
/** Slots a ring starts with (the default cap, 100, fits at once: growing in steps cost a load 10 %). */
const FIRST_SLOTS = 128
const NO_ERROR = 1
const NO_CHECK = 2
const NO_ASSERTIONS = 4
/** The kinds of what an assertion saw. */
const ACTUAL_NULL = 0
const ACTUAL_FALSE = 1
const ACTUAL_TRUE = 2
const ACTUAL_NUMBER = 3
const ACTUAL_STRING = 4

const numOrNull = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x))
const isActual = (x: unknown) =>
  x === null ||
  typeof x === 'string' ||
  typeof x === 'boolean' ||
  (typeof x === 'number' && Number.isFinite(x))

/** Assertion definitions (every field of a result but passed and actual, in order) and their JSON. */
interface Defs {
  keys: string[][]
  values: unknown[][]
  json: string
}

/** True when `a` is an assertion result whose last keys are passed and actual (of JSON's kinds). */
function result(a: unknown, keys: string[]): a is Record<string, unknown> {
  const r = a as Record<string, unknown>
  const n = keys.length
  return (
    n >= 2 &&
    keys[n - 2] === 'passed' &&
    keys[n - 1] === 'actual' &&
    typeof r.passed === 'boolean' &&
    isActual(r.actual)
  )
}

/** `list`'s definitions when they are `d`'s (a monitor's runs mostly repeat them): no JSON made. */
function sameDefs(list: unknown[], d: Defs): boolean {
  if (list.length !== d.keys.length) return false
  for (let i = 0; i < list.length; i++) {
    const a = list[i] as Record<string, unknown>
    if (typeof a !== 'object' || a === null) return false
    const keys = Object.keys(a)
    const dk = d.keys[i]
    if (keys.length !== dk.length + 2 || !result(a, keys)) return false
    for (let j = 0; j < dk.length; j++) if (keys[j] !== dk[j] || a[dk[j]] !== d.values[i][j]) return false
  }
  return true
}

/** The definitions of a run's assertion results, or null when they do not fit. */
function definitions(list: unknown): Defs | null {
  if (!Array.isArray(list) || list.length > 32) return null
  const out: Defs = { keys: [], values: [], json: '' }
  const defs: Record<string, unknown>[] = []
  for (const a of list) {
    if (typeof a !== 'object' || a === null || Array.isArray(a)) return null
    const keys = Object.keys(a)
    if (!result(a, keys)) return null
    const d: Record<string, unknown> = {}
    for (const k of keys.slice(0, -2)) {
      if (!isActual(a[k])) return null
      d[k] = a[k]
    }
    out.keys.push(keys.slice(0, -2))
    out.values.push(Object.values(d))
    defs.push(d)
  }
  out.json = JSON.stringify(defs)
  return out
}

let lastDefs: { json: string; defs: Record<string, unknown>[] } | undefined

/**
 * The definitions of `json`, parsed (a fold reads every run of a ring in turn, most with the same
 * ones: parsed once). Never handed out: each read spreads them into objects of its own.
 */
function parsedDefs(json: string): Record<string, unknown>[] {
  if (lastDefs?.json !== json) lastDefs = { json, defs: JSON.parse(json) as Record<string, unknown>[] }
  return lastDefs.defs
}

let lastHeads: { json: string; heads: string[] } | undefined

/**
 * The JSON text of each result of `json`'s definitions up to its `passed` value: `{…defs,"passed":`
 * (what JSON.stringify writes for `{...def, passed, actual}`).
 */
function resultHeads(json: string): string[] {
  if (lastHeads?.json !== json)
    lastHeads = {
      json,
      heads: parsedDefs(json).map((d) => {
        const inner = JSON.stringify(d).slice(1, -1)
        return `{${inner}${inner ? ',' : ''}"passed":`
      }),
    }
  return lastHeads.heads
}

const jsonNum = (x: number) => (Number.isNaN(x) ? 'null' : String(x))

/** True when `r`, but for its ids and assertions, comes back from the packed form exactly as it is. */
function fits(r: RunRecord, monitorId: string): boolean {
  const keys = Object.keys(r)
  const n = keys.length
  if (n !== KEYS.length && n !== KEYS.length - 1) return false
  for (let i = 0; i < n; i++) if (keys[i] !== KEYS[i]) return false
  const e = r.error as unknown
  return (
    r.monitor_id === monitorId &&
    typeof r.location === 'string' &&
    typeof r.outcome === 'string' &&
    typeof r.trigger === 'string' &&
    typeof r.state === 'string' &&
    numOrNull(r.health_score) &&
    numOrNull(r.response_time_ms) &&
    (e === null ||
      (typeof e === 'object' &&
        Object.keys(e).join() === 'code,message' &&
        typeof r.error!.code === 'string' &&
        typeof r.error!.message === 'string'))
  )
}

/** The newest `cap` runs of one monitor, oldest first, in packed columns. */
export class RunRing {
  private size = 0
  /** Slot of the oldest run. */
  private head = 0
  private slots = 0
  private ids = new Uint32Array(0)
  private checks = new Uint32Array(0)
  /** started_at (epoch ms), health_score, response_time_ms (NaN: null) of each slot. */
  private nums = new Float64Array(0)
  private flags = new Uint8Array(0)
  private passed = new Uint32Array(0)
  /** The shared strings of each slot by number (0: null). */
  private strs = new Uint32Array(0)
  /** What each assertion saw, `width` a slot: its kind (ACTUAL_*) and its number or string's number. */
  private kinds = new Uint8Array(0)
  private values = new Float64Array(0)
  private width = 0
  /** Runs that do not fit the packed form, as they came (by slot). */
  private odd: Map<number, RunRecord> | undefined
  /** The id of the newest run ('' when none). */
  lastId = ''
  /** The assertion definitions of the last run packed with some. */
  private defs: Defs | undefined

  constructor(
    readonly monitorId: string,
    private readonly cap: number,
    private readonly shared: SharedStrings,
  ) {}

  get length(): number {
    return this.size
  }

  /** Adds a run newer than every one held (an older or equal id is ignored: a replay). */
  push(r: RunRecord): void {
    if (this.size > 0 && r.id <= this.lastId) return
    if (this.cap <= 0) return
    let slot: number
    if (this.size === this.cap) {
      slot = this.head
      this.clear(slot)
      this.head = (this.head + 1) % this.slots
    } else {
      if (this.size === this.slots) this.grow(Math.min(this.cap, Math.max(FIRST_SLOTS, this.slots * 2)))
      slot = (this.head + this.size) % this.slots
      this.size++
    }
    this.lastId = r.id
    if (!this.pack(slot, r)) (this.odd ??= new Map()).set(slot, r)
  }

  /** Packs `r` into `slot`; false (nothing held) when it does not fit. */
  private pack(slot: number, r: RunRecord): boolean {
    const at = isoMs(r.started_at)
    if (Number.isNaN(at) || !fits(r, this.monitorId) || !putUuid(this.ids, slot * 4, r.id)) return false
    if (r.check_id !== null && !putUuid(this.checks, slot * 4, r.check_id)) return false
    let defs = ''
    const list = r.assertions
    if (list !== undefined) {
      if (!this.defs || !sameDefs(list, this.defs)) {
        const d = definitions(list)
        if (!d) return false
        this.defs = d
      }
      defs = this.defs.json
    }
    let f = 0
    if (r.check_id === null) f |= NO_CHECK
    if (r.error === null) f |= NO_ERROR
    if (list === undefined) f |= NO_ASSERTIONS
    this.flags[slot] = f
    this.nums[slot * 3] = at
    this.nums[slot * 3 + 1] = r.health_score ?? NaN
    this.nums[slot * 3 + 2] = r.response_time_ms ?? NaN
    const o = slot * S
    const h = this.shared
    this.strs[o] = h.holdId(r.outcome)
    this.strs[o + 1] = h.holdId(r.trigger)
    this.strs[o + 2] = h.holdId(r.state)
    this.strs[o + 3] = r.error ? h.holdId(r.error.code) : 0
    this.strs[o + 4] = r.error ? h.holdId(r.error.message) : 0
    this.strs[o + 5] = list ? h.holdId(defs) : 0
    this.strs[o + 6] = h.holdId(r.location)
    const n = list?.length ?? 0
    if (n > this.width) this.widen(n)
    let bits = 0
    for (let i = 0; i < n; i++) {
      if (list![i].passed) bits |= 1 << i
      const a = list![i].actual as unknown
      const k = slot * this.width + i
      if (typeof a === 'string') {
        this.kinds[k] = ACTUAL_STRING
        this.values[k] = h.holdId(a)
      } else if (typeof a === 'number') {
        this.kinds[k] = ACTUAL_NUMBER
        this.values[k] = a
      } else this.kinds[k] = a === null ? ACTUAL_NULL : a ? ACTUAL_TRUE : ACTUAL_FALSE
    }
    this.passed[slot] = bits
    return true
  }

  /** Forgets what `slot` holds (its shared strings released). */
  private clear(slot: number): void {
    if (this.odd?.delete(slot)) return
    const o = slot * S
    for (let i = 0; i < S; i++) {
      this.shared.releaseId(this.strs[o + i])
      this.strs[o + i] = 0
    }
    for (let i = 0; i < this.width; i++) {
      const k = slot * this.width + i
      if (this.kinds[k] === ACTUAL_STRING) this.shared.releaseId(this.values[k])
      this.kinds[k] = ACTUAL_NULL
    }
  }

  /** Lets go of every shared string (the monitor is deleted). */
  release(): void {
    for (let i = 0; i < this.size; i++) this.clear((this.head + i) % this.slots)
    this.size = 0
  }

  /** Re-lays the columns for `slots` slots, oldest run first. */
  private grow(slots: number): void {
    const order = Array.from({ length: this.size }, (_, i) => (this.head + i) % this.slots)
    const move = <T extends Uint32Array | Float64Array | Uint8Array>(
      a: T,
      per: number,
      make: (n: number) => T,
    ) => {
      const b = make(slots * per)
      order.forEach((s, i) => b.set(a.subarray(s * per, s * per + per), i * per))
      return b
    }
    this.ids = move(this.ids, 4, (n) => new Uint32Array(n))
    this.checks = move(this.checks, 4, (n) => new Uint32Array(n))
    this.nums = move(this.nums, 3, (n) => new Float64Array(n))
    this.flags = move(this.flags, 1, (n) => new Uint8Array(n))
    this.passed = move(this.passed, 1, (n) => new Uint32Array(n))
    this.strs = move(this.strs, S, (n) => new Uint32Array(n))
    this.kinds = move(this.kinds, this.width, (n) => new Uint8Array(n))
    this.values = move(this.values, this.width, (n) => new Float64Array(n))
    const odd = this.odd && new Map<number, RunRecord>()
    order.forEach((s, i) => {
      const r = this.odd?.get(s)
      if (r) odd!.set(i, r)
    })
    this.odd = odd
    this.head = 0
    this.slots = slots
  }

  /** Room for `width` assertion results a slot. */
  private widen(width: number): void {
    const kinds = new Uint8Array(this.slots * width)
    const values = new Float64Array(this.slots * width)
    for (let s = 0; s < this.slots; s++)
      for (let k = 0; k < this.width; k++) {
        kinds[s * width + k] = this.kinds[s * this.width + k]
        values[s * width + k] = this.values[s * this.width + k]
      }
    this.kinds = kinds
    this.values = values
    this.width = width
  }

  /** The string held in string column `c` of slot `s`. */
  private str(s: number, c: number): string {
    return this.shared.of(this.strs[s * S + c])
  }

  /** What assertion `i` of slot `s` saw. */
  private actual(s: number, i: number): unknown {
    const k = s * this.width + i
    switch (this.kinds[k]) {
      case ACTUAL_STRING:
        return this.shared.of(this.values[k])
      case ACTUAL_NUMBER:
        return this.values[k]
      case ACTUAL_TRUE:
        return true
      case ACTUAL_FALSE:
        return false
      default:
        return null
    }
  }

  private slotOf(i: number): number {
    return (this.head + i) % this.slots
  }

  /** The id of the `i`-th oldest run. */
  idAt(i: number): string {
    const s = this.slotOf(i)
    return this.odd?.get(s)?.id ?? getUuid(this.ids, s * 4)
  }

  /** The `i`-th oldest run, as it was added. */
  at(i: number): RunRecord {
    const s = this.slotOf(i)
    const odd = this.odd?.get(s)
    if (odd) return odd
    const f = this.flags[s]
    const n = (x: number) => (Number.isNaN(x) ? null : x)
    const run: RunRecord = {
      id: getUuid(this.ids, s * 4),
      monitor_id: this.monitorId,
      location: this.str(s, 6),
      started_at: new Date(this.nums[s * 3]).toISOString(),
      outcome: this.str(s, 0) as RunRecord['outcome'],
      trigger: this.str(s, 1) as RunRecord['trigger'],
      check_id: f & NO_CHECK ? null : getUuid(this.checks, s * 4),
      health_score: n(this.nums[s * 3 + 1]),
      response_time_ms: n(this.nums[s * 3 + 2]),
      state: this.str(s, 2) as RunRecord['state'],
      error: f & NO_ERROR ? null : { code: this.str(s, 3), message: this.str(s, 4) },
    }
    if (!(f & NO_ASSERTIONS)) {
      const defs = parsedDefs(this.str(s, 5))
      run.assertions = defs.map((d, i) => ({
        ...d,
        passed: (this.passed[s] & (1 << i)) !== 0,
        actual: this.actual(s, i),
      })) as RunRecord['assertions']
    }
    return run
  }

  /**
   * `JSON.stringify(this.at(i))`, written from the columns without making the record (a fold
   * writes a million of them: the records and their strings were most of its time and garbage).
   */
  jsonAt(i: number): string {
    const s = this.slotOf(i)
    const odd = this.odd?.get(s)
    if (odd) return JSON.stringify(odd)
    const f = this.flags[s]
    const q = JSON.stringify
    let out =
      `{"id":"${getUuid(this.ids, s * 4)}","monitor_id":${q(this.monitorId)},"location":${q(this.str(s, 6))}` +
      `,"started_at":"${new Date(this.nums[s * 3]).toISOString()}","outcome":${q(this.str(s, 0))}` +
      `,"trigger":${q(this.str(s, 1))},"check_id":${f & NO_CHECK ? 'null' : `"${getUuid(this.checks, s * 4)}"`}` +
      `,"health_score":${jsonNum(this.nums[s * 3 + 1])},"response_time_ms":${jsonNum(this.nums[s * 3 + 2])}` +
      `,"state":${q(this.str(s, 2))},"error":${f & NO_ERROR ? 'null' : `{"code":${q(this.str(s, 3))},"message":${q(this.str(s, 4))}}`}`
    if (!(f & NO_ASSERTIONS)) {
      const heads = resultHeads(this.str(s, 5))
      out += ',"assertions":['
      for (let k = 0; k < heads.length; k++)
        out +=
          `${k ? ',' : ''}${heads[k]}${(this.passed[s] & (1 << k)) !== 0},"actual":` +
          `${q(this.actual(s, k))}}`
      out += ']'
    }
    return `${out}}`
  }

  /** Every run, oldest first. */
  *[Symbol.iterator](): Generator<RunRecord> {
    for (let i = 0; i < this.size; i++) yield this.at(i)
  }
}
