import { describe, expect, it } from 'vitest'
import {
  busyLoopIterations,
  busyLoopMs,
  insertedHeightPx,
  scanWork,
} from '../../../src/checks/page/script-scan.js'

describe('busyLoopIterations: long counted loops a static read can see', () => {
  it('drops the loops of a DOMContentLoaded listener an async script adds: the event has fired (h3-js-dcl-spin-async-cdn was 78; Lighthouse 100)', () => {
    const dcl =
      "var acc = 0;\ndocument.addEventListener('DOMContentLoaded', function () { for (var j = 0; j < 25000000; j++) { acc = (acc * 31 + j) % 1000003; } });\n"
    const arrow =
      'window.addEventListener("DOMContentLoaded", () => { for (let j = 0; j < 3e6; j++) {} }); for (let k = 0; k < 2e6; k++) {}'
    expect(busyLoopIterations(dcl, { afterDomContentLoaded: true })).toBe(0)
    expect(busyLoopIterations(arrow, { afterDomContentLoaded: true })).toBe(2e6)
    // a classic or deferred script runs before the event: its listener's loop runs
    expect(busyLoopIterations(dcl)).toBe(25_000_000)
    expect(busyLoopIterations(arrow)).toBe(5e6)
  })

  it('reads a for loop bounded by a literal, in any notation', () => {
    expect(busyLoopIterations('for (var i = 0; i < 40000000; i++) { s += i }')).toBe(40_000_000)
    expect(busyLoopIterations('for (let j=0;j<=5e7;j++){}')).toBe(5e7)
    expect(busyLoopIterations('for (let k = 0; k < 2_000_000; k += 1) work()')).toBe(2_000_000)
  })

  it('reads a while loop bounded by a literal, and adds up several loops', () => {
    expect(busyLoopIterations('while (n < 300000) n++; for (;i < 700000;) i++')).toBe(1_000_000)
  })

  it('multiplies nested counted loops (two loops of 6,000 were 0: each alone is short)', () => {
    expect(
      busyLoopIterations(
        'for (var a = 0; a < 6000; a++) { for (var b = 0; b < 6000; b++) { s = s * 31 + b } }',
      ),
    ).toBe(36_000_000)
    // without braces, and a loop split over ten timers
    expect(busyLoopIterations('for (i = 0; i < 1000; i++) for (j = 0; j < 1000; j++) s += j; t()')).toBe(
      1_000_000,
    )
    expect(
      busyLoopIterations(
        'for (var c = 0; c < 10; c++) setTimeout(function () { for (var j = 0; j < 6000000; j++) {} }, 0)',
      ),
    ).toBe(60_000_000)
    // loops one after the other do not multiply
    expect(busyLoopIterations('for (a = 0; a < 1000; a++) {} for (b = 0; b < 1000; b++) {}')).toBe(0)
  })

  it('ignores short loops (ordinary code, already in the per-byte cost) and loops bounded by a variable', () => {
    expect(busyLoopIterations('for (var i = 0; i < 8; i++) {}')).toBe(0)
    expect(busyLoopIterations('for (var i = 0; i < items.length; i++) {}')).toBe(0)
    expect(busyLoopIterations('for (const x of list) {}')).toBe(0)
  })
})

describe('busyLoopMs: loops bounded by elapsed time', () => {
  it('reads the elapsed-time forms: performance.now(), Date.now(), new Date(), in while, do … while and for', () => {
    expect(busyLoopMs('var t = performance.now(); while (performance.now() - t < 300) {}')).toBe(300)
    expect(busyLoopMs('var t=Date.now();while(Date.now()-t<=75){x++}')).toBe(75)
    expect(busyLoopMs('var start = Date.now(); do { x++ } while (Date.now() - start < 400);')).toBe(400)
    expect(busyLoopMs('for (const s = performance.now(); performance.now() - s < 200;) {}')).toBe(200)
    expect(busyLoopMs('var t0 = new Date(); while (new Date() - t0 < 150) {}')).toBe(150)
    expect(busyLoopMs('var t0 = +new Date(); while ((+new Date() - t0) < 1e3) {}')).toBe(1000)
    expect(busyLoopMs('while (new Date().getTime() - this.t < 120) n++')).toBe(120)
    expect(busyLoopMs('while (window.performance.now() - t < 90) {}')).toBe(90)
  })

  it('reads a deadline set as a literal offset from the clock, and a bound written as start + N', () => {
    expect(busyLoopMs('const end = Date.now() + 250;\nwhile (Date.now() < end) {}')).toBe(250)
    expect(busyLoopMs('let $end = performance.now()+60; while(performance.now()<$end);')).toBe(60)
    expect(busyLoopMs('var t = Date.now(); while (Date.now() < t + 500) {}')).toBe(500)
  })

  it('adds up the loops of a script, and caps the total', () => {
    const two =
      'var a = Date.now(); while (Date.now() - a < 100) {} var b = Date.now(); while (Date.now() - b < 50) {}'
    expect(busyLoopMs(two)).toBe(150)
    expect(busyLoopMs('while (Date.now() - t < 9e9) {}')).toBe(50_000)
  })

  it('drops the loops of a DOMContentLoaded listener an async script adds, keeps timers and load', () => {
    const dcl =
      "document.addEventListener('DOMContentLoaded', function () { var t = Date.now(); while (Date.now() - t < 300) {} });"
    const timer = 'setTimeout(function () { var t = Date.now(); while (Date.now() - t < 200) {} }, 0)'
    expect(busyLoopMs(dcl, { afterDomContentLoaded: true })).toBe(0)
    expect(busyLoopMs(dcl)).toBe(300)
    expect(busyLoopMs(timer, { afterDomContentLoaded: true })).toBe(200)
  })

  it('does not count loops that only read the clock', () => {
    // a deadline that is no literal offset, a bound in a variable, a literal epoch
    expect(busyLoopMs('var deadline = start + timeout; while (Date.now() < deadline) {}')).toBe(0)
    expect(busyLoopMs('while (Date.now() < opts.deadline) {}')).toBe(0)
    expect(busyLoopMs('while (performance.now() - t < budget) work()')).toBe(0)
    expect(busyLoopMs('while (Date.now() < 1700000000000) {}')).toBe(0)
    // another condition can end it, or the body gives the thread back or leaves early
    expect(busyLoopMs('while (!done && Date.now() - t < 500) step()')).toBe(0)
    expect(busyLoopMs('while (Date.now() - t < 5000) { await sleep(100) }')).toBe(0)
    expect(busyLoopMs('do { if (poll()) break } while (Date.now() - t < 2000)')).toBe(0)
    // animation code comparing timestamps, not looping on them
    expect(busyLoopMs('function step(ts) { if (ts - start < 1000) requestAnimationFrame(step) }')).toBe(0)
    expect(busyLoopMs('if (performance.now() - last < 16) return;')).toBe(0)
    // counted loops are turns, not time
    expect(busyLoopMs('for (var i = 0; i < 5e7; i++) {}')).toBe(0)
    expect(busyLoopIterations('var t = Date.now(); while (Date.now() - t < 300) {}')).toBe(0)
  })
})

describe('when: the loops a script runs now, apart from those it leaves to a later task', () => {
  const spin = (ms: number) => `var t = performance.now(); while (performance.now() - t < ${ms}) {}`
  const turns = (n: number) => `for (var j = 0; j < ${n}; j++) { acc = (acc * 31 + j) % 1000003; }`

  it('puts loops in timer callbacks and load listeners later, in every way they are written', () => {
    const later = [
      `setTimeout(function () { ${spin(500)} }, 0)`,
      `window.setTimeout(() => { ${spin(500)} })`,
      `setInterval(async function tick() { ${spin(500)} }, 1000)`,
      `window.addEventListener('load', function () { ${spin(500)} });`,
      `addEventListener("load", e => { ${spin(500)} })`,
      `img.addEventListener(\`load\`, () => { ${spin(500)} })`,
      `window.onload = function () { ${spin(500)} }`,
      `onload = () => { ${spin(500)} }`,
    ]
    for (const code of later) {
      expect(busyLoopMs(code, { when: 'later' }), code).toBe(500)
      expect(busyLoopMs(code, { when: 'now' }), code).toBe(0)
      expect(busyLoopMs(code), code).toBe(500)
    }
    const counted = `setTimeout(function () { ${turns(3e7)} }, 0); window.onload = () => { ${turns(2e7)} }`
    expect(busyLoopIterations(counted, { when: 'later' })).toBe(5e7)
    expect(busyLoopIterations(counted, { when: 'now' })).toBe(0)
  })

  it('keeps the loops around and after the callback, and DOMContentLoaded listeners, now', () => {
    const code = `${spin(100)}\nsetTimeout(function () { ${spin(400)} }, 0);\ndocument.addEventListener('DOMContentLoaded', function () { ${spin(50)} });\n${turns(2e6)}`
    expect(busyLoopMs(code, { when: 'now' })).toBe(150)
    expect(busyLoopMs(code, { when: 'later' })).toBe(400)
    expect(busyLoopIterations(code, { when: 'now' })).toBe(2e6)
    expect(busyLoopIterations(code, { when: 'later' })).toBe(0)
    // a function passed by name, a resize or click listener: not read as later
    expect(busyLoopMs(`function work() { ${spin(300)} } setTimeout(work, 0)`, { when: 'later' })).toBe(0)
    expect(busyLoopMs(`addEventListener('resize', function () { ${spin(300)} })`, { when: 'now' })).toBe(300)
  })

  it('multiplies a later loop by the loops around it: ten timers of 6 M turns are 60 M later', () => {
    const chunks = `for (var c = 0; c < 10; c++) setTimeout(function () { ${turns(6e6)} }, 0)`
    expect(busyLoopIterations(chunks, { when: 'later' })).toBe(6e7)
    expect(busyLoopIterations(chunks, { when: 'now' })).toBe(0)
  })

  it('drops an async script’s DOMContentLoaded listener from both parts', () => {
    const code = `setTimeout(function () { document.addEventListener('DOMContentLoaded', () => { ${spin(300)} }) })`
    expect(busyLoopMs(code, { afterDomContentLoaded: true, when: 'later' })).toBe(0)
    expect(busyLoopMs(code, { afterDomContentLoaded: true, when: 'now' })).toBe(0)
  })
})

describe('a hostile text: the scan grows with the text, not with its square', () => {
  /** The scan's steps (scanWork) over `text` with both options the checks use: a count, not a clock. */
  const steps = (text: string) => {
    const before = scanWork.steps
    busyLoopMs(text, { when: 'later', afterDomContentLoaded: true })
    busyLoopMs(text, { when: 'now' })
    busyLoopIterations(text, { when: 'later', afterDomContentLoaded: true })
    return scanWork.steps - before
  }
  // each was quadratic: every deadline loop looked back over the whole text, every loop was
  // checked against every callback, a one-statement loop body was read to the next `;` (past
  // its block, or to the text's end), and the loops after it were multiplied by it
  const texts: Record<string, [number, (n: number) => string]> = {
    'many deadline loops': [
      2_000,
      (n) => 'const end = Date.now() + 5; while (Date.now() < end) {}'.repeat(n),
    ],
    'many timers with loops': [
      2_000,
      (n) =>
        'setTimeout(() => { while (performance.now() - t < 5) {} for (var i=0;i<200000;i++){} });'.repeat(n),
    ],
    'many DOMContentLoaded listeners with loops': [
      2_000,
      (n) =>
        "addEventListener('DOMContentLoaded', function () { for (var i=0;i<200000;i++) x() });".repeat(n),
    ],
    'many long while loops, each one statement with no `;`': [
      2_000,
      (n) => 'while (i < 1000000) a '.repeat(n),
    ],
    'many nested counted loops': [
      2_000,
      (n) => 'for (var i = 0; i < 1000; i++) { for (var j = 0; j < 1000; j++) s++ }'.repeat(n),
    ],
  }
  for (const [name, [n, make]] of Object.entries(texts))
    it(`${name}: twice the text takes about twice the steps`, () => {
      const once = steps(make(n))
      expect(once).toBeGreaterThan(n)
      // linear is 2, quadratic 4
      expect(steps(make(2 * n)) / once).toBeLessThan(2.2)
    })

  // what a regex reads is not counted: its patterns bound what one match may read (unbounded, a
  // text of many `for (` and no `;` made each match scan to its end: 20 s for 600 KB)
  it('a for loop header or a callback header longer than 200 characters is not read', () => {
    const header = (pad: number) =>
      `for (var t = performance.now()${' '.repeat(pad)}; performance.now() - t < 50;) {}`
    expect(busyLoopMs(header(100))).toBe(50)
    expect(busyLoopMs(header(300))).toBe(0)
    const callback = (pad: number) =>
      `setTimeout(function ${' '.repeat(pad)}() { for (var i = 0; i < 1e6; i++) {} })`
    expect(busyLoopIterations(callback(100), { when: 'later' })).toBe(1e6)
    expect(busyLoopIterations(callback(300), { when: 'later' })).toBe(0)
  })
})

describe('insertedHeightPx', () => {
  it('takes the tallest px height the script sets', () => {
    expect(insertedHeightPx("d.style.height = '300px'; e.style.height='40px'")).toBe(300)
    expect(insertedHeightPx('el.innerHTML = \'<div style="height: 450px">ad</div>\'')).toBe(450)
  })
  it('is null when the script names no height', () => {
    expect(insertedHeightPx('document.body.prepend(banner)')).toBeNull()
    expect(insertedHeightPx("d.style.height = '50%'")).toBeNull()
  })
})
