// @ts-check
/**
 * Why Lighthouse's cost per loop turn varies ~10x between the corpus's pages (issue 26): the same
 * busy loop the corpus writes (`acc = (acc * 31 + j) % 1000003`, test/fixtures/perf-corpus/
 * corpus.js), timed in the local Chromium with performance.now(), once with the accumulator left
 * small by the code before it and once with it left large enough that the first `acc * 31` passes
 * V8's small-integer range (2^30). The text of the loop is the same; what differs is a value the
 * page computes at run time, which the estimate (page/script-scan.ts) cannot see.
 *
 *   flock /tmp/bench.lock node bench/loop-cost.js [--turns 20] [--rounds 3]
 *
 * Prints ns per turn (median of the rounds) for each place the corpus puts a loop: the script's
 * top level, two nested loops, a timer's callback, and the top level of a module.
 */
import { chromium } from 'playwright-core'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) || fallback : fallback
}
const TURNS = arg('--turns', 20) * 1e6
const ROUNDS = arg('--rounds', 3)
const SQRT = Math.round(Math.sqrt(TURNS))
const body = (i) => `{ acc = (acc * 31 + ${i}) % 1000003; }`

/** Where the loop sits; each sets window.__ms to the loop's own time. */
const PLACES = {
  'top level': (start) =>
    `<script>var acc = ${start}; var t0 = performance.now(); for (var j = 0; j < ${TURNS}; j++) ${body('j')} window.__ms = performance.now() - t0;</script>`,
  'nested loops': (start) =>
    `<script>var acc = ${start}; var t0 = performance.now(); for (var a = 0; a < ${SQRT}; a++) { for (var b = 0; b < ${SQRT}; b++) ${body('b')} } window.__ms = (performance.now() - t0) * ${TURNS / (SQRT * SQRT)};</script>`,
  'timer callback': (start) =>
    `<script>var acc = ${start}; setTimeout(function () { var t0 = performance.now(); for (var j = 0; j < ${TURNS}; j++) ${body('j')} window.__ms = performance.now() - t0; }, 0);</script>`,
  'module top level': (start) =>
    `<script type="module">var acc = ${start}; var t0 = performance.now(); for (var j = 0; j < ${TURNS}; j++) ${body('j')} window.__ms = performance.now() - t0;</script>`,
}
/** 3e7 * 31 stays below 2^30; 4e7 * 31 does not (the corpus's 12 KB of filler leaves ~4e7). */
const STARTS = { small: 3e7, large: 4e7 }

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
})
try {
  console.log(
    `| loop (${TURNS / 1e6} M turns) | acc starts small: ns/turn | acc starts large: ns/turn | ratio |`,
  )
  console.log('|---|---:|---:|---:|')
  for (const [place, page] of Object.entries(PLACES)) {
    const ns = {}
    for (const [size, start] of Object.entries(STARTS)) {
      const times = []
      for (let r = 0; r < ROUNDS; r++) {
        const p = await browser.newPage()
        await p.setContent(page(start))
        await p.waitForFunction(() => /** @type {any} */ (globalThis).__ms !== undefined, null, {
          timeout: 60_000,
        })
        times.push(((await p.evaluate(() => /** @type {any} */ (globalThis).__ms)) * 1e6) / TURNS)
        await p.close()
      }
      ns[size] = median(times)
    }
    console.log(
      `| ${place} | ${ns.small.toFixed(1)} | ${ns.large.toFixed(1)} | ${(ns.large / ns.small).toFixed(1)}x |`,
    )
  }
} finally {
  await browser.close()
}
