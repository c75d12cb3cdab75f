// @ts-check
/**
 * Micro-bench of the regression rules (docs/decisions.md#regressions-from-a-sketch-in-the-monitors-memory):
 * what they add to one run of a 60 s monitor whose sketch holds a full week. Measures, per run,
 * the rules alone (`evaluate` with the sketch, minus `evaluate` without it) and what the record
 * written per run grows by (bytes, and JSON.stringify and JSON.parse of the sketch: the store
 * writes the record once per run; PostgreSQL also reads it once, at the claim). Imports the built code: `npm run build` first.
 *
 *   node bench/regression.js
 */
import { performance } from 'node:perf_hooks'
import { readSketch } from '../dist/monitors/regression.js'
import { evaluate, INITIAL_MEMORY } from '../dist/monitors/rules.js'

const MIN = 60_000
const T0 = Date.parse('2026-11-18T00:00:00Z')
const WEEK = 7 * 1440

/** @param {number} score @param {number} ms */
const obs = (score, ms) => ({
  kind: /** @type {const} */ ('saved'),
  check: {
    id: '01a2084a-9dd6-76a2-9367-c897e9bd68ee',
    health_score: score,
    risk_level: 'low',
    status: 'ok',
    created_at: '2026-01-01T00:00:00.000Z',
    ...(ms === null ? {} : { response_time_ms: ms }),
  },
  unreachable: false,
  certDaysLeft: null,
  certInvalid: null,
  headersPresent: null,
})

/** A realistic spread: scores 84–92, response times 80–700 ms with a tail. */
const sample = (i) => obs(84 + ((i * 7) % 9), 80 + ((i * 37) % 220) + (i % 50 === 0 ? 600 : 0))

// a week of history
let state = /** @type {any} */ ('up')
let memory = INITIAL_MEMORY
const alerts = { down_after: 2, min_score: null }
for (let i = 0; i < WEEK; i++) {
  const out = evaluate({ state, memory, alerts, target: 'https://shop.example/' }, sample(i), T0 + i * MIN)
  state = out.state
  memory = out.memory
}
const full = memory

/** ns per run of `n` runs of evaluate from the full week on, with or without a response time (rules on/off). */
function time(withRules, n) {
  let m = full
  const t = performance.now()
  for (let i = 0; i < n; i++) {
    const o = sample(WEEK + i)
    if (!withRules) delete o.check.response_time_ms // no response time: the regression rules skip the run
    const out = evaluate(
      { state: 'up', memory: m, alerts, target: 'https://shop.example/' },
      o,
      T0 + (WEEK + i) * MIN,
    )
    m = withRules ? out.memory : full
  }
  return ((performance.now() - t) / n) * 1e6
}

const N = 20_000
// warm up
for (let i = 0; i < 3; i++) {
  time(true, 2000)
  time(false, 2000)
}
const on = time(true, N)
const off = time(false, N)
const json = JSON.stringify(full.regression)
/** ns per call of `f`, over N calls. */
const per = (f) => {
  for (let i = 0; i < 2000; i++) f()
  const t = performance.now()
  for (let i = 0; i < N; i++) f()
  return ((performance.now() - t) / N) * 1e6
}
const stringify = per(() => JSON.stringify(full.regression))
const parse = per(() => JSON.parse(json))

const us = (ns) => `${(ns / 1000).toFixed(1)} µs`
const sketch = readSketch(full.regression)
process.stdout.write(
  `A 60 s monitor with a full week in its sketch (${sketch?.days.length} days, ` +
    `${sketch?.recent.length} runs in the last hour):\n` +
    `  evaluate per run: ${us(on)} with the regression rules, ${us(off)} without: ${us(on - off)} added\n` +
    `  sketch in the record (packed): ${json.length} bytes of JSON; JSON.stringify ${us(stringify)} (every write), ` +
    `JSON.parse ${us(parse)} (every read of the record)\n`,
)
