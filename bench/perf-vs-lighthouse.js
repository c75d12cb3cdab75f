// @ts-check
/**
 * Our performance estimate against real Lighthouse, on the same local pages.
 *
 *   npm run build && node bench/perf-vs-lighthouse.js [--runs N] [--lh-cache FILE] [--md FILE] [--only a,b]
 *   npm run build && node bench/perf-vs-lighthouse.js --medians test/fixtures/perf-corpus/lab-medians.json [--md FILE]
 *
 * --medians FILE: no browser at all; Lighthouse's medians come from the file that
 * bench/perf-lab-corpus.js wrote (both corpora, measured through the lab mode), and the report is
 * given for each part: the first corpus (32 pages), the unseen corpus's tuning part and its
 * held-out part (test/fixtures/perf-corpus/unseen.js heldOut, fixed before any tuning), the new
 * held-out set (holdout2.js, measured before the estimate changed again), the third (holdout3.js,
 * measured before the third round), the fourth (holdout4.js, loops bounded by elapsed time, measured
 * before the estimate could see them), and all. --without-holdout3: every part but the third held-out
 * set (the parts the third round studied). --tuning: only
 * the parts the estimate may be tuned on (neither held-out part is even run).
 *
 * Serves the corpus (test/fixtures/perf-corpus/), runs Lighthouse 12 on every page (mobile, its
 * default simulated throttling: RTT 150 ms, 1638.4 Kbps, CPU 4×; performance category only) in
 * Chromium at /usr/bin/chromium (or $CHROME_PATH), then our check on the same URL (built code,
 * private targets allowed), and prints both scores, the metrics side by side, the Spearman rank
 * correlation and the pages whose bands (≥ 90 / 50-89 / < 50) differ.
 *
 * Lighthouse runs each page --runs times (default 3) and the median run counts, as Lighthouse's own
 * docs advise: on a shared machine its CPU-bound metrics (TBT, and the observed part of speed
 * index) move between runs. --lh-cache FILE keeps its runs by page name (a run takes 10-25 s; our
 * estimate changes more often than the corpus). Delete the file after changing the corpus.
 */
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { runCheck } from '../dist/checks/index.js'
import { PAGES, startCorpus } from '../test/fixtures/perf-corpus/corpus.js'
import { HOLDOUT2_PAGES } from '../test/fixtures/perf-corpus/holdout2.js'
import { HOLDOUT3_PAGES } from '../test/fixtures/perf-corpus/holdout3.js'
import { HOLDOUT4_PAGES } from '../test/fixtures/perf-corpus/holdout4.js'
import { heldOut, UNSEEN_PAGES } from '../test/fixtures/perf-corpus/unseen.js'

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking']

function parseArgs(argv) {
  const args = { cache: null, md: null, only: null, runs: 3, medians: null, tuning: false, holdout3: false }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--lh-cache') args.cache = argv[++i]
    else if (argv[i] === '--medians') args.medians = argv[++i]
    else if (argv[i] === '--md') args.md = argv[++i]
    else if (argv[i] === '--only') args.only = argv[++i].split(',')
    else if (argv[i] === '--runs') args.runs = Number(argv[++i])
    else if (argv[i] === '--tuning') args.tuning = true
    else if (argv[i] === '--without-holdout3') args.holdout3 = true
    else throw new Error(`unknown argument ${argv[i]}`)
  }
  return args
}

export function ranks(values) {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v)
  const r = new Array(values.length)
  for (let i = 0; i < order.length;) {
    let j = i
    while (j + 1 < order.length && order[j + 1].v === order[i].v) j++
    for (let k = i; k <= j; k++) r[order[k].i] = (i + j) / 2 + 1
    i = j + 1
  }
  return r
}

/** Spearman's ρ: Pearson's correlation of the ranks (ties get their mean rank). */
export function spearman(xs, ys) {
  const rx = ranks(xs)
  const ry = ranks(ys)
  const mean = (a) => a.reduce((s, v) => s + v, 0) / a.length
  const mx = mean(rx)
  const my = mean(ry)
  let num = 0
  let dx = 0
  let dy = 0
  for (let i = 0; i < rx.length; i++) {
    num += (rx[i] - mx) * (ry[i] - my)
    dx += (rx[i] - mx) ** 2
    dy += (ry[i] - my) ** 2
  }
  return num / Math.sqrt(dx * dy)
}

const HOLDOUT2 = new Set(HOLDOUT2_PAGES.map((p) => p.name))
const isHoldout2 = (name) => HOLDOUT2.has(name)
const HOLDOUT3 = new Set(HOLDOUT3_PAGES.map((p) => p.name))
const isHoldout3 = (name) => HOLDOUT3.has(name)
const HOLDOUT4 = new Set(HOLDOUT4_PAGES.map((p) => p.name))
const isHoldout4 = (name) => HOLDOUT4.has(name)

const band = (score) => (score >= 90 ? 2 : score >= 50 ? 1 : 0)
const BAND_NAMES = ['<50', '50-89', '≥90']

async function runLighthouse(urls, cache, runs) {
  const results = cache && existsSync(cache) ? JSON.parse(await readFile(cache, 'utf8')) : {}
  const todo = Object.entries(urls).filter(([name]) => (results[name]?.length ?? 0) < runs)
  if (todo.length > 0) {
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
    })
    try {
      // one round over every page at a time, so a busy minute on the machine does not hit one page's runs
      for (let round = 0; round < runs; round++)
        for (const [name, url] of todo) {
          if ((results[name]?.length ?? 0) > round) continue
          const started = performance.now()
          const run = await lighthouse(url, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
          })
          const lhr = run.lhr
          const metric = (id) => lhr.audits[id]?.numericValue ?? null
          const result = {
            score: Math.round((lhr.categories.performance.score ?? 0) * 100),
            fcp: metric('first-contentful-paint'),
            lcp: metric('largest-contentful-paint'),
            si: metric('speed-index'),
            tbt: metric('total-blocking-time'),
            cls: metric('cumulative-layout-shift'),
            error: lhr.runtimeError?.message ?? null,
          }
          ;(results[name] ??= []).push(result)
          process.stderr.write(
            `lighthouse ${name} #${round + 1}: ${result.score} (${Math.round(performance.now() - started)} ms)\n`,
          )
          if (cache) await writeFile(cache, JSON.stringify(results, null, 2))
        }
    } finally {
      await chrome.kill()
    }
  }
  // the median run by score, with its metrics; the spread says how steady Lighthouse was
  return Object.fromEntries(
    Object.keys(urls).map((name) => {
      const list = [...results[name].slice(0, runs)].sort((a, b) => a.score - b.score)
      const med = list[Math.floor((list.length - 1) / 2)]
      return [name, { ...med, runs: list.map((r) => r.score) }]
    }),
  )
}

async function runOurs(urls) {
  const out = {}
  for (const [name, url] of Object.entries(urls)) {
    const report = await runCheck(url, { allowPrivateTargets: true })
    const d = report.signals.pagespeed.details
    out[name] = {
      score: report.performanceScore,
      metrics: d.metrics ?? {},
      message: report.signals.pagespeed.message,
      gatherMs: /** @type {any} */ (d.subresources)?.elapsedMs ?? null,
      durationMs: report.durationMs,
    }
  }
  return out
}

/** ρ, bands and mean absolute error of one part of the corpus. */
export function agreement(rows) {
  let offByOne = 0
  let offByTwo = 0
  for (const r of rows) {
    const diff = Math.abs(band(r.lh.score) - band(r.ours.score))
    if (diff === 1) offByOne++
    if (diff >= 2) offByTwo++
  }
  const rho = spearman(
    rows.map((r) => r.lh.score),
    rows.map((r) => r.ours.score),
  )
  const mae = rows.reduce((s, r) => s + Math.abs(r.lh.score - r.ours.score), 0) / rows.length
  return { n: rows.length, rho, same: rows.length - offByOne - offByTwo, offByOne, offByTwo, mae }
}

async function fromMedians(args) {
  const file = JSON.parse(await readFile(args.medians, 'utf8'))
  const pages = [...PAGES, ...UNSEEN_PAGES, ...HOLDOUT2_PAGES, ...HOLDOUT3_PAGES, ...HOLDOUT4_PAGES].filter(
    (p) =>
      file.pages[p.name] &&
      (!args.only || args.only.includes(p.name)) &&
      (!args.tuning ||
        !(heldOut(p.name) || isHoldout2(p.name) || isHoldout3(p.name) || isHoldout4(p.name))) &&
      (!args.holdout3 || !isHoldout3(p.name)),
  )
  const corpus = await startCorpus({ pages })
  try {
    const urls = Object.fromEntries(pages.map((p) => [p.name, corpus.url(p.name)]))
    const ours = await runOurs(urls)
    const rows = pages.map((p) => {
      const m = file.pages[p.name]
      return { name: p.name, lh: { ...m, ...m.metrics }, ours: ours[p.name] }
    })
    const parts = [
      [
        'first corpus (32)',
        rows.filter(
          (r) =>
            !r.name.startsWith('u-') && !isHoldout2(r.name) && !isHoldout3(r.name) && !isHoldout4(r.name),
        ),
      ],
      ['unseen: tuning', rows.filter((r) => r.name.startsWith('u-') && !heldOut(r.name))],
      ['unseen: held out', rows.filter((r) => heldOut(r.name))],
      ['unseen: all', rows.filter((r) => r.name.startsWith('u-'))],
      ['new held out (holdout2.js)', rows.filter((r) => isHoldout2(r.name))],
      ['third held out (holdout3.js)', rows.filter((r) => isHoldout3(r.name))],
      ['fourth held out (holdout4.js)', rows.filter((r) => isHoldout4(r.name))],
      ['everything', rows],
    ]
    const out = [
      table(rows),
      '',
      '| part | pages | Spearman ρ | same band | one apart | two apart | mean abs error |',
      '|---|---:|---:|---:|---:|---:|---:|',
    ]
    for (const [label, list] of parts) {
      if (list.length < 2) continue
      const a = agreement(list)
      out.push(
        `| ${label} | ${a.n} | ${a.rho.toFixed(3)} | ${a.same} | ${a.offByOne} | ${a.offByTwo} | ${a.mae.toFixed(1)} |`,
      )
    }
    const text = `${out.join('\n')}\n\nLighthouse ${file.lighthouseVersion}, medians of ${file.measuredAt}\n`
    process.stdout.write(text)
    if (args.md) await writeFile(args.md, text)
  } finally {
    await corpus.close()
  }
}

function table(rows) {
  const s = (v) => (v == null ? '-' : String(Math.round(v)))
  const c = (v) => (v == null ? '-' : Number(v).toFixed(3))
  const lines = [
    '| page | Lighthouse (runs) | ours | LH FCP / LCP / SI / TBT ms, CLS | our FCP / LCP / SI / TBT ms, CLS | band |',
    '|---|---:|---:|---|---|---|',
  ]
  for (const r of rows) {
    const diff = Math.abs(band(r.lh.score) - band(r.ours.score))
    const m = r.ours.metrics
    lines.push(
      `| ${r.name}${heldOut(r.name) ? ' (held out)' : isHoldout2(r.name) ? ' (new held out)' : isHoldout3(r.name) ? ' (third held out)' : isHoldout4(r.name) ? ' (fourth held out)' : ''} | ${r.lh.score} (${r.lh.runs.join(', ')}) | ${r.ours.score} | ${s(r.lh.fcp)} / ${s(r.lh.lcp)} / ${s(r.lh.si)} / ${s(r.lh.tbt)}, ${c(r.lh.cls)} | ${s(m.fcp)} / ${s(m.lcp)} / ${s(m.si)} / ${s(m.tbt)}, ${c(m.cls)} | ${diff === 0 ? 'same' : `${BAND_NAMES[band(r.lh.score)]} vs ${BAND_NAMES[band(r.ours.score)]}`} |`,
    )
  }
  return lines.join('\n')
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  if (args.medians) return fromMedians(args)
  const corpus = await startCorpus()
  try {
    const names = corpus.pages.map((p) => p.name).filter((n) => !args.only || args.only.includes(n))
    const urls = Object.fromEntries(names.map((n) => [n, corpus.url(n)]))
    const lh = await runLighthouse(urls, args.cache, args.runs)
    const ours = await runOurs(urls)

    const rows = names.map((n) => ({ name: n, lh: lh[n], ours: ours[n] }))
    const rho = spearman(
      rows.map((r) => r.lh.score),
      rows.map((r) => r.ours.score),
    )
    const s = (v) => (v == null ? '-' : String(Math.round(v)))
    const lines = [
      '| page | Lighthouse (runs) | ours | LH FCP / LCP / SI / TBT ms, CLS | our FCP / LCP / SI / TBT ms | band |',
      '|---|---:|---:|---|---|---|',
    ]
    let offByOne = 0
    let offByTwo = 0
    for (const r of rows) {
      const diff = Math.abs(band(r.lh.score) - band(r.ours.score))
      if (diff === 1) offByOne++
      if (diff >= 2) offByTwo++
      const m = r.ours.metrics
      lines.push(
        `| ${r.name} | ${r.lh.score} (${r.lh.runs.join(', ')}) | ${r.ours.score} | ${s(r.lh.fcp)} / ${s(r.lh.lcp)} / ${s(r.lh.si)} / ${s(r.lh.tbt)}, ${r.lh.cls?.toFixed(3) ?? '-'} | ${s(m.fcp)} / ${s(m.lcp)} / ${s(m.si)} / ${s(m.tbt)} | ${diff === 0 ? 'same' : `${BAND_NAMES[band(r.lh.score)]} vs ${BAND_NAMES[band(r.ours.score)]}`} |`,
      )
    }
    const gather = rows.map((r) => r.ours.gatherMs).filter((v) => v != null)
    const summary = [
      `Spearman ρ = ${rho.toFixed(3)} over ${rows.length} pages`,
      `bands: ${rows.length - offByOne - offByTwo} same, ${offByOne} one apart, ${offByTwo} two apart`,
      `subresource gather: max ${Math.max(...gather)} ms, median ${gather.sort((a, b) => a - b)[Math.floor(gather.length / 2)]} ms (loopback)`,
    ]
    const out = `${lines.join('\n')}\n\n${summary.join('\n')}\n`
    process.stdout.write(out)
    for (const r of rows) process.stdout.write(`${r.name}: ${r.ours.message}\n`)
    if (args.md) await writeFile(args.md, out)
  } finally {
    await corpus.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
