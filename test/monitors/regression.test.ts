/**
 * Regressions against the monitor's own history (docs/decisions.md#monitoring-depth), as the pure
 * rules judge them: score 15+ points below the 7-day median, the last hour's p95 response time
 * over twice the 7-day p95, 20 runs needed, once per episode, cleared when back within bounds,
 * degraded meanwhile.
 */
import { describe, expect, it } from 'vitest'
import type { LastCheck } from '../../src/contract/monitors.js'
import { baseline, binMs, packSketch, readSketch, rtBin } from '../../src/monitors/regression.js'
import { evaluate, INITIAL_MEMORY, type ActiveState, type Observation } from '../../src/monitors/rules.js'
import type { MonitorMemory, RegressionSketch } from '../../src/store/monitors.js'

const T0 = Date.parse('2026-11-20T00:00:00Z')
const MIN = 60_000
const DAY = 86_400_000

const run = (
  score: number,
  ms: number,
  over: Partial<Extract<Observation, { kind: 'saved' }>> = {},
): Observation => {
  const check: LastCheck = {
    id: '01a2084a-9dd6-76a2-9367-c897e9bd68ee',
    health_score: score,
    risk_level: 'low',
    status: 'ok',
    created_at: '2026-01-01T00:00:00.000Z',
    response_time_ms: ms,
  }
  return {
    kind: 'saved',
    check,
    unreachable: false,
    certDaysLeft: null,
    certInvalid: null,
    headersPresent: null,
    ...over,
  }
}

/** A monitor fed runs at chosen times; remembers every event and state. */
function monitor(alerts = { down_after: 1, min_score: null as number | null }) {
  let state: ActiveState = 'pending'
  let memory: MonitorMemory = INITIAL_MEMORY
  const log: Array<{ event: string; message: string }> = []
  return {
    get state() {
      return state
    },
    get memory() {
      return memory
    },
    log,
    events: () => log.map((e) => e.event),
    feed(obs: Observation, at: number) {
      const out = evaluate({ state, memory, alerts, target: 'https://example.com/' }, obs, at)
      state = out.state
      memory = out.memory
      log.push(...out.events)
      return out
    },
    /** `n` runs of the same score and time, a minute apart from `from`. */
    many(n: number, score: number, ms: number, from: number) {
      for (let i = 0; i < n; i++) this.feed(run(score, ms), from + i * MIN)
    },
  }
}

describe('score.regressed', () => {
  it('needs 20 runs in the 7 days: 19 judge nothing, 20 do', () => {
    const few = monitor()
    few.many(19, 90, 100, T0)
    few.feed(run(50, 100), T0 + DAY)
    expect(few.events()).toEqual([])
    expect(few.state).toBe('up')

    const enough = monitor()
    enough.many(20, 90, 100, T0)
    enough.feed(run(50, 100), T0 + DAY)
    expect(enough.events()).toEqual(['monitor.degraded', 'score.regressed'])
    expect(enough.state).toBe('degraded')
    expect(enough.log[1].message).toBe(
      'Health score 50 of https://example.com/ is 40 points below its 7-day median of 90',
    )
    expect(enough.log[0].message).toBe(
      'https://example.com/ is degraded: its health score 50 is 40 points below its 7-day median of 90',
    )
  })

  it('15 points below is a regression, 14 is not', () => {
    const m14 = monitor()
    m14.many(20, 90, 100, T0)
    m14.feed(run(76, 100), T0 + DAY)
    expect(m14.events()).toEqual([])
    const m15 = monitor()
    m15.many(20, 90, 100, T0)
    m15.feed(run(75, 100), T0 + DAY)
    expect(m15.events()).toEqual(['monitor.degraded', 'score.regressed'])
  })

  it('announces once per episode, clears when back within bounds, and fires again on a new episode', () => {
    const m = monitor()
    m.many(30, 90, 100, T0)
    const at = T0 + DAY
    m.feed(run(60, 100), at)
    m.feed(run(61, 100), at + MIN)
    m.feed(run(55, 100), at + 2 * MIN)
    expect(m.events()).toEqual(['monitor.degraded', 'score.regressed'])
    expect(m.state).toBe('degraded')
    expect(m.memory.score_regressed).toBe(true)

    m.feed(run(80, 100), at + 3 * MIN) // 10 below: within bounds
    expect(m.state).toBe('up')
    expect(m.memory.score_regressed).toBe(false)
    expect(m.log.at(-1)).toEqual({
      event: 'monitor.up',
      message: 'https://example.com/ is healthy again (health 80/100)',
    })

    m.feed(run(50, 100), at + 4 * MIN)
    expect(m.events()).toEqual([
      'monitor.degraded',
      'score.regressed',
      'monitor.up',
      'monitor.degraded',
      'score.regressed',
    ])
  })

  it('forgets runs older than the 7 days, and an outage moves no baseline', () => {
    const m = monitor()
    m.many(30, 90, 100, T0)
    // nine days later the old runs are out of the window: too few runs to judge
    m.feed(run(50, 100), T0 + 9 * DAY)
    expect(m.events()).toEqual([])
    // failed and unreachable runs are not added to the history
    const o = monitor({ down_after: 5, min_score: null })
    o.many(19, 90, 100, T0)
    o.feed({ kind: 'failed', error: { code: 'check_failed', message: 'refused' } }, T0 + DAY)
    o.feed(run(40, 100, { unreachable: true }), T0 + DAY + MIN)
    o.feed(run(50, 100), T0 + DAY + 2 * MIN)
    expect(o.events()).toEqual([])
  })

  it('a run below min_score and regressed is degraded once; it is up only when both are over', () => {
    const m = monitor({ down_after: 1, min_score: 70 })
    m.many(20, 90, 100, T0)
    m.feed(run(60, 100), T0 + DAY)
    expect(m.events()).toEqual(['monitor.degraded', 'score.below', 'score.regressed'])
    m.feed(run(72, 100), T0 + DAY + MIN) // over min_score, still 18 below the median
    expect(m.state).toBe('degraded')
    m.feed(run(88, 100), T0 + DAY + 2 * MIN)
    expect(m.state).toBe('up')
    expect(m.events()).toEqual(['monitor.degraded', 'score.below', 'score.regressed', 'monitor.up'])
  })

  it('a monitor coming back from down while regressed is up again, but degraded', () => {
    const m = monitor()
    m.many(20, 90, 100, T0)
    m.feed({ kind: 'failed', error: { code: 'check_failed', message: 'refused' } }, T0 + DAY)
    expect(m.state).toBe('down')
    m.feed(run(50, 100), T0 + DAY + MIN)
    expect(m.state).toBe('degraded')
    expect(m.log.at(-2)?.message).toMatch(/is up again, but degraded: its health score 50 is 40 points below/)
    expect(m.events()).toEqual(['monitor.down', 'monitor.up', 'score.regressed'])
  })
})

describe('a good run', () => {
  it('a run failing only an assertion fails for both halves: it counts towards down and moves no baseline', () => {
    const m = monitor()
    m.many(19, 90, 100, T0)
    // answered and reachable, 50 points down, but an assertion failed: down, not regressed
    m.feed(run(40, 100, { assertionFailed: 'status is 200 (saw 503)' }), T0 + DAY)
    expect(m.state).toBe('down')
    expect(m.log.at(-1)?.message).toMatch(/is down .*: assertion failed: status is 200 \(saw 503\)$/)
    // had it gone into the history, this would be the 20th run and a regression
    m.feed(run(50, 100), T0 + DAY + MIN)
    expect(m.state).toBe('up')
    expect(m.events()).toEqual(['monitor.down', 'monitor.up'])
  })
})

describe('response_time.regressed', () => {
  /** `n` runs at 100 ms a minute apart, days before: a 7-day p95 of about 100 ms. */
  function withHistory(n = 600) {
    const m = monitor()
    for (let i = 0; i < n; i++) m.feed(run(90, 100), T0 + i * MIN)
    return m
  }
  const base = binMs(rtBin(100)) // the 7-day p95 as the 10 % bins see 100 ms
  const hour = T0 + 3 * DAY

  it('needs 20 runs in the last hour: the 20th slow run fires it, once', () => {
    const m = withHistory()
    for (let i = 0; i < 19; i++) m.feed(run(90, 500), hour + i * MIN)
    expect(m.events()).toEqual([])
    m.feed(run(90, 500), hour + 19 * MIN)
    expect(m.events()).toEqual(['monitor.degraded', 'response_time.regressed'])
    expect(m.log[1].message).toBe(
      `The p95 response time of https://example.com/ over the last hour, 500 ms, is over twice its 7-day p95 of ${base} ms`,
    )
    m.feed(run(90, 500), hour + 20 * MIN)
    m.feed(run(90, 90), hour + 21 * MIN)
    expect(m.events()).toEqual(['monitor.degraded', 'response_time.regressed'])
    expect(m.state).toBe('degraded')
  })

  it('exactly twice the 7-day p95 is within bounds, one ms more is not', () => {
    const at = withHistory()
    for (let i = 0; i < 20; i++) at.feed(run(90, 2 * base), hour + i * MIN)
    expect(at.events()).toEqual([])
    const over = withHistory()
    for (let i = 0; i < 20; i++) over.feed(run(90, 2 * base + 1), hour + i * MIN)
    expect(over.events()).toEqual(['monitor.degraded', 'response_time.regressed'])
  })

  it('clears when the slow runs leave the hour, and fires again on a new episode', () => {
    // enough history that two slow hours stay under 5 % of the 7 days (they are in them too)
    const m = withHistory(1000)
    for (let i = 0; i < 20; i++) m.feed(run(90, 1840), hour + i * MIN)
    expect(m.state).toBe('degraded')
    expect(m.log[1].message).toMatch(/over the last hour, 1,840 ms, is over twice/)
    const later = hour + 2 * 3_600_000
    for (let i = 0; i < 20; i++) m.feed(run(90, 100), later + i * MIN)
    expect(m.state).toBe('up')
    expect(m.memory.response_time_regressed).toBe(false)
    const again = later + 2 * 3_600_000
    for (let i = 0; i < 20; i++) m.feed(run(90, 900), again + i * MIN)
    expect(m.events()).toEqual([
      'monitor.degraded',
      'response_time.regressed',
      'monitor.up',
      'monitor.degraded',
      'response_time.regressed',
    ])
  })

  it('keeps the sketch small: a week of 60 s runs is a few hundred numbers, packed in under 1,200 characters', () => {
    const m = monitor()
    for (let i = 0; i < 7 * 1440; i++) m.feed(run(85 + (i % 7), 80 + (i % 300)), T0 + i * MIN)
    expect(typeof m.memory.regression).toBe('string')
    expect(JSON.stringify(m.memory.regression).length).toBeLessThan(1_200)
    const sk = readSketch(m.memory.regression)!
    expect(sk.recent.length).toBe(60)
    expect(sk.days.length).toBe(7)
    expect(baseline(sk, T0 + 7 * DAY).runs).toBe(7 * 1440)
  })

  it('packs and reads back a sketch exactly (response times in whole ms)', () => {
    const sk: RegressionSketch = {
      days: [
        { d: 20_410, s: [90, 1440, 0, 3, 100, 70_000], r: [0, 1, 57, 1439, 127, 2] },
        { d: 20_411, s: [], r: [] },
      ],
      recent: [
        [1_763_510_400, 0],
        [1_763_510_460, 120_000],
        [1_763_510_459, 7],
      ],
    }
    expect(readSketch(packSketch(sk))).toEqual(sk)
    expect(readSketch(packSketch({ days: [], recent: [] }))).toEqual({ days: [], recent: [] })
  })

  it('reads a sketch stored as JSON before packing, and judges by its history', () => {
    // a monitor stored with the JSON form: 20 runs at 90 the day before
    const day = Math.floor(T0 / DAY)
    const m = monitor()
    m.feed(run(90, 100), T0)
    const stored: MonitorMemory = {
      ...m.memory,
      regression: { days: [{ d: day, s: [90, 20], r: [rtBin(100), 20] }], recent: [] },
    }
    const out = evaluate(
      {
        state: 'up',
        memory: stored,
        alerts: { down_after: 1, min_score: null },
        target: 'https://example.com/',
      },
      run(50, 100),
      T0 + DAY / 2,
    )
    expect(out.events.map((e) => e.event)).toEqual(['monitor.degraded', 'score.regressed'])
    expect(readSketch(out.memory.regression)?.days[0].s).toEqual([90, 20, 50, 1])
  })

  it('judges a sketch it cannot read as empty instead of failing the run', () => {
    const m = monitor()
    const out = evaluate(
      {
        state: 'up',
        memory: { ...m.memory, regression: 'not a sketch' },
        alerts: { down_after: 1, min_score: null },
        target: 'https://example.com/',
      },
      run(50, 100),
      T0,
    )
    expect(out.state).toBe('up')
    expect(readSketch(out.memory.regression)?.days[0].s).toEqual([50, 1])
  })
})
