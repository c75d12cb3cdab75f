/**
 * The embedded store's packed pieces shared by its runs and incidents (run-ring.ts,
 * incident-list.ts): the counted table of strings they share, and UUIDs and times read into
 * numbers and back exactly.
 */

/**
 * Strings shared by every ring of a store, each forgotten once no slot holds it. A ring holds a
 * string by its number here (a slot of a typed array, outside V8's heap: a million runs' strings
 * as pointers in JS arrays took ~90 MB of heap, which V8 lets grow to twice that between
 * collections while `serve` runs).
 */
export class SharedStrings {
  private readonly ids = new Map<string, number>()
  private readonly strs: (string | undefined)[] = []
  private readonly counts: number[] = []
  private readonly free: number[] = []

  /** The one copy of `s` (counted once more). */
  hold(s: string): string {
    return this.strs[this.holdId(s)]!
  }

  /** The number of `s` (counted once more), never 0. */
  holdId(s: string): number {
    let id = this.ids.get(s)
    if (id === undefined) {
      id = this.free.pop() ?? this.strs.length + 1
      this.strs[id] = s
      this.counts[id] = 0
      this.ids.set(s, id)
    }
    this.counts[id]++
    return id
  }

  /** The string of a number `holdId` gave. */
  of(id: number): string {
    return this.strs[id]!
  }

  release(s: string | null | undefined): void {
    if (typeof s !== 'string') return
    const id = this.ids.get(s)
    if (id !== undefined) this.releaseId(id)
  }

  /** Counts a number `holdId` gave once less (0: none). */
  releaseId(id: number): void {
    if (id === 0 || this.strs[id] === undefined) return
    if (--this.counts[id] <= 0) {
      this.ids.delete(this.strs[id]!)
      this.strs[id] = undefined
      this.free.push(id)
    }
  }

  /** Distinct strings held (tests: nothing is kept once its runs are gone). */
  get size(): number {
    return this.ids.size
  }
}

const hex8 = (w: number) => (w >>> 0).toString(16).padStart(8, '0')

/** The value of a lowercase hex digit, else -1. */
function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  if (c >= 97 && c <= 102) return c - 87
  return -1
}

/** Writes a lowercase UUID's 128 bits to `words` from `at`; false (words left undefined) when `id` is not one. */
export function putUuid(words: Uint32Array, at: number, id: unknown): boolean {
  if (typeof id !== 'string' || id.length !== 36) return false
  if (id[8] !== '-' || id[13] !== '-' || id[18] !== '-' || id[23] !== '-') return false
  let w = 0
  let n = 0
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) continue
    const v = nibble(id.charCodeAt(i))
    if (v < 0) return false
    w = w * 16 + v
    if (++n % 8 === 0) {
      words[at + n / 8 - 1] = w
      w = 0
    }
  }
  return true
}

const scratch = new Uint32Array(4)
export const isUuid = (s: unknown): s is string => putUuid(scratch, 0, s)

export function getUuid(words: Uint32Array, at: number): string {
  const b = hex8(words[at + 1])
  const c = hex8(words[at + 2])
  return `${hex8(words[at])}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${hex8(words[at + 3])}`
}

/** `n` decimal digits of `s` from `i` (-1: not digits). */
function digits(s: string, i: number, n: number): number {
  let v = 0
  for (let k = i; k < i + n; k++) {
    const c = s.charCodeAt(k) - 48
    if (c < 0 || c > 9) return -1
    v = v * 10 + c
  }
  return v
}

/**
 * Epoch ms of a time in `toISOString`'s own form (`2026-11-26T07:21:51.123Z`, years 100-9999), else
 * NaN: only such a time comes back the same from its ms. Read by hand, 4x faster than Date.parse
 * and toISOString (a load reads a million).
 */
export function isoMs(s: unknown): number {
  if (typeof s !== 'string' || s.length !== 24) return NaN
  if (s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':' || s[19] !== '.')
    return NaN
  if (s[23] !== 'Z') return NaN
  const y = digits(s, 0, 4)
  const mo = digits(s, 5, 2)
  const d = digits(s, 8, 2)
  const h = digits(s, 11, 2)
  const mi = digits(s, 14, 2)
  const sec = digits(s, 17, 2)
  const ms = digits(s, 20, 3)
  if (y < 100 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59) return NaN
  if (sec < 0 || sec > 59 || ms < 0) return NaN
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  const days = mo === 2 ? (leap ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31
  return d > days ? NaN : Date.UTC(y, mo - 1, d, h, mi, sec, ms)
}

export const isIso = (s: unknown): s is string => !Number.isNaN(isoMs(s))
