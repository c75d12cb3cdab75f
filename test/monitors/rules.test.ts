import { describe, expect, it } from 'vitest'
import type { LastCheck } from '../../src/contract/monitors.js'
import { evaluate, INITIAL_MEMORY, type Observation } from '../../src/monitors/rules.js'
import type { MonitorMemory } from '../../src/store/monitors.js'

const check = (score = 90): LastCheck => ({
  id: '01a2084a-9dd6-76a2-9367-c897e9bd68ee',
  health_score: score,
  risk_level: 'low',
  status: 'ok',
  created_at: '2026-01-01T00:00:00.000Z',
})
const ok = (over: Partial<Extract<Observation, { kind: 'saved' }>> = {}): Observation => ({
  kind: 'saved',
  check: check(),
  unreachable: false,
  certDaysLeft: 80,
  certInvalid: null,
  headersPresent: ['x-frame-options', 'content-security-policy'],
  ...over,
})
const failed: Observation = { kind: 'failed', error: { code: 'check_failed', message: 'refused' } }

/** Feeds observations through the rules as the scheduler would; returns every event name. */
function replay(obs: Observation[], alerts = { down_after: 2, min_score: null as number | null }) {
  let state: 'pending' | 'up' | 'degraded' | 'down' = 'pending'
  let memory: MonitorMemory = INITIAL_MEMORY
  const events: string[] = []
  const states: string[] = []
  for (const o of obs) {
    const out = evaluate({ state, memory, alerts, target: 'https://example.com/' }, o)
    state = out.state
    memory = out.memory
    events.push(...out.events.map((e) => e.event))
    states.push(state)
  }
  return { events, states, memory }
}

describe('monitor rules', () => {
  it('goes down only after down_after failures in a row, once, and up once', () => {
    const r = replay([ok(), failed, ok(), failed, failed, failed, ok({ unreachable: true }), ok(), ok()])
    expect(r.states).toEqual(['up', 'up', 'up', 'up', 'down', 'down', 'down', 'up', 'up'])
    expect(r.events).toEqual(['monitor.down', 'monitor.up'])
  })

  it('down_after 1 alerts on the first failure; a pending monitor can go down', () => {
    expect(replay([failed], { down_after: 1, min_score: null }).events).toEqual(['monitor.down'])
    expect(replay([failed, failed]).states).toEqual(['pending', 'down'])
  })

  it('degraded only below min_score: degraded and back raise one event each', () => {
    const low = ok({ check: check(50) })
    const r = replay([ok(), low, low, ok(), ok()], { down_after: 2, min_score: 70 })
    expect(r.states).toEqual(['up', 'degraded', 'degraded', 'up', 'up'])
    expect(r.events).toEqual(['monitor.degraded', 'score.below', 'monitor.up'])
    // without min_score a low score is still up: its findings stay on the check
    expect(replay([low, low]).states).toEqual(['up', 'up'])
  })

  it('warns about an expiring certificate once per threshold, and again for the next certificate', () => {
    const days = (d: number) => ok({ certDaysLeft: d })
    expect(
      replay([days(30), days(21), days(20), days(8), days(7), days(5), days(1), days(0)]).events,
    ).toEqual(['certificate.expiring', 'certificate.expiring', 'certificate.expiring'])
    // first seen at 5 days: one event (the 7-day one), not three
    expect(replay([days(5), days(5), days(4)]).events).toEqual(['certificate.expiring'])
    // renewed, then expiring again
    expect(replay([days(5), days(90), days(6)]).events).toEqual([
      'certificate.expiring',
      'certificate.expiring',
    ])
  })

  it('reports an invalid certificate once per episode', () => {
    const bad = ok({ certInvalid: 'self-signed' })
    expect(replay([ok(), bad, bad, ok(), bad]).events).toEqual(['certificate.invalid', 'certificate.invalid'])
  })

  it('score.below fires when the score drops under min_score, once until it recovers', () => {
    const s = (n: number) => ok({ check: check(n) })
    const events = replay([s(90), s(60), s(50), s(90), s(40)], { down_after: 2, min_score: 70 }).events
    expect(events.filter((e) => e === 'score.below')).toEqual(['score.below', 'score.below'])
    expect(replay([s(10)], { down_after: 2, min_score: null }).events).toEqual([])
  })

  it('headers.regressed names the header that was present and is gone, once', () => {
    const h = (...names: string[]) => ok({ headersPresent: names })
    const r = replay([h('a', 'b'), h('a'), h('a'), failed, h('a', 'b'), h('b')])
    expect(r.events).toEqual(['headers.regressed', 'headers.regressed'])
  })

  it('remembers what it announced, so the same observation after a restart raises nothing', () => {
    const { memory, states } = replay([failed, failed, ok({ certDaysLeft: 5, check: check(10) })], {
      down_after: 2,
      min_score: 50,
    })
    const again = evaluate(
      {
        state: states.at(-1) as 'degraded',
        memory: JSON.parse(JSON.stringify(memory)),
        alerts: { down_after: 2, min_score: 50 },
        target: 'x',
      },
      ok({ certDaysLeft: 5, check: check(10) }),
    )
    expect(again.events).toEqual([])
  })
})

describe('flap control', () => {
  const alerts = (over: Record<string, number | null>) => ({ down_after: 2, min_score: null, ...over })
  /** Like replay, with a clock: one run a minute. */
  function timed(obs: Observation[], a: ReturnType<typeof alerts>) {
    let state: 'pending' | 'up' | 'degraded' | 'down' = 'pending'
    let memory: MonitorMemory = INITIAL_MEMORY
    const events: string[] = []
    const states: string[] = []
    obs.forEach((o, i) => {
      const out = evaluate(
        { state, memory, alerts: a, target: 'https://example.com/' },
        o,
        1_000_000 + i * 60_000,
      )
      state = out.state
      memory = JSON.parse(JSON.stringify(out.memory)) // as stored
      events.push(...out.events.map((e) => e.event))
      states.push(state)
    })
    return { events, states }
  }

  it('recover_after: down stays down until that many good runs in a row; one monitor.up', () => {
    const r = timed([failed, failed, ok(), failed, ok(), ok(), ok()], alerts({ recover_after: 2 }))
    expect(r.states).toEqual(['pending', 'down', 'down', 'down', 'down', 'up', 'up'])
    expect(r.events).toEqual(['monitor.down', 'monitor.up'])
  })

  it('remind_every_minutes: monitor.still_down while down, spaced by the interval; none without it', () => {
    const downFor = (n: number) => [failed, failed, ...Array.from({ length: n }, () => failed)]
    // down at minute 1; reminders at minutes 6 and 11; up at 13
    const r = timed([...downFor(11), ok()], alerts({ remind_every_minutes: 5 }))
    expect(r.events).toEqual(['monitor.down', 'monitor.still_down', 'monitor.still_down', 'monitor.up'])
    expect(timed(downFor(11), alerts({})).events).toEqual(['monitor.down'])
    // after recovery the next outage starts its own reminders
    const again = timed([...downFor(5), ok(), ...downFor(5)], alerts({ remind_every_minutes: 5 }))
    expect(again.events).toEqual([
      'monitor.down',
      'monitor.still_down',
      'monitor.up',
      'monitor.down',
      'monitor.still_down',
    ])
  })
})
