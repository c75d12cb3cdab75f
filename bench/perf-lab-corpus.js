// @ts-check
/**
 * Measures the performance corpora (test/fixtures/perf-corpus: PAGES, UNSEEN_PAGES, HOLDOUT2_PAGES, HOLDOUT3_PAGES,
 * HOLDOUT4_PAGES) with real
 * Lighthouse through the lab mode itself (dist/lab: one warm Chromium, a fresh context per run, at
 * --lab-concurrency 1), three runs a page, one round over every page at a time, and writes the
 * medians to test/fixtures/perf-corpus/lab-medians.json so tests and bench/perf-vs-lighthouse.js
 * --medians never need the browser again. CPU heavy: run it once, alone, under the bench lock:
 *
 *   npm run build && flock /tmp/bench.lock node bench/perf-lab-corpus.js [--runs 3] [--cache FILE] [--only a,b]
 *
 * --cache FILE (default /tmp/perf-lab-runs.json) keeps every run as it ends, so an interrupted
 * measurement resumes. A run that fell back to the estimate is recorded and retried (twice at most).
 * While it runs it samples the browser's process tree (PSS from /proc/PID/smaps_rollup) every
 * 500 ms; the run times and the peak are printed at the end (the cost at concurrency 1).
 */
import { existsSync, readFileSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { clearInterval, setInterval } from 'node:timers'
import { Lab } from '../dist/lab/index.js'
import { PAGES, startCorpus } from '../test/fixtures/perf-corpus/corpus.js'
import { HOLDOUT2_PAGES } from '../test/fixtures/perf-corpus/holdout2.js'
import { HOLDOUT3_PAGES } from '../test/fixtures/perf-corpus/holdout3.js'
import { HOLDOUT4_PAGES } from '../test/fixtures/perf-corpus/holdout4.js'
import { UNSEEN_PAGES } from '../test/fixtures/perf-corpus/unseen.js'

const OUT = new URL('../test/fixtures/perf-corpus/lab-medians.json', import.meta.url)

function parseArgs(argv) {
  const args = { cache: '/tmp/perf-lab-runs.json', only: /** @type {string[] | null} */ (null), runs: 3 }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cache') args.cache = argv[++i]
    else if (argv[i] === '--only') args.only = argv[++i].split(',')
    else if (argv[i] === '--runs') args.runs = Number(argv[++i])
    else throw new Error(`unknown argument ${argv[i]}`)
  }
  return args
}

/** Every process whose ancestry reaches `root` (root included). */
export async function processTree(root) {
  const parents = new Map()
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(Number(entry), ppid)
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root]
  for (let grew = true; grew;) {
    grew = false
    for (const [pid, ppid] of parents)
      if (tree.includes(ppid) && !tree.includes(pid)) {
        tree.push(pid)
        grew = true
      }
  }
  return tree
}

/** Summed PSS of these processes, bytes (a process that ended meanwhile counts 0). */
export async function pssBytes(pids) {
  let kb = 0
  for (const pid of pids) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'))
      if (m) kb += Number(m[1])
    } catch {
      // gone meanwhile
    }
  }
  return kb * 1024
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]
}
const medianOf = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** The medians of a page's measured runs: the median run by score (its metrics), and each metric's own median. */
export function medians(runs) {
  const sorted = [...runs].sort((a, b) => a.score - b.score)
  const mid = sorted[Math.floor((sorted.length - 1) / 2)]
  const metric = (k) => medianOf(runs.map((r) => r.metrics[k]))
  return {
    score: mid.score,
    runs: sorted.map((r) => r.score),
    metrics: mid.metrics,
    metricMedians: {
      fcp: metric('fcp'),
      lcp: metric('lcp'),
      tbt: metric('tbt'),
      cls: metric('cls'),
      si: metric('si'),
    },
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  const all = [...PAGES, ...UNSEEN_PAGES, ...HOLDOUT2_PAGES, ...HOLDOUT3_PAGES, ...HOLDOUT4_PAGES]
  const pages = all.filter((p) => !args.only || args.only.includes(p.name))
  /** @type {Record<string, any[]>} */
  const results = existsSync(args.cache) ? JSON.parse(await readFile(args.cache, 'utf8')) : {}
  const corpus = await startCorpus({ pages: all })
  const lab = await Lab.start({
    browser: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    allowPrivateTargets: true,
    concurrency: 1,
    timeoutMs: 120_000,
  })
  let peak = 0
  const sampler = setInterval(() => {
    const pid = lab.browserPid
    if (pid)
      void processTree(pid)
        .then(pssBytes)
        .then((b) => {
          peak = Math.max(peak, b)
        })
  }, 500)
  const durations = []
  let version = ''
  try {
    const measured = (name) => (results[name] ?? []).filter((r) => r.method === 'lab')
    const failed = (name) => (results[name] ?? []).filter((r) => r.method !== 'lab').length
    for (let round = 0; round < args.runs; round++)
      for (const p of pages) {
        while (measured(p.name).length <= round && failed(p.name) < 3) {
          const started = performance.now()
          const outcome = await lab.measure(corpus.url(p.name))
          const wall = Math.round(performance.now() - started)
          durations.push(wall)
          ;(results[p.name] ??= []).push({ ...outcome, wallMs: wall })
          if (outcome.method === 'lab') version = outcome.lighthouseVersion
          process.stderr.write(
            `${p.name} #${round + 1}: ${outcome.method === 'lab' ? outcome.score : `fallback ${outcome.fallback}`} (${wall} ms)\n`,
          )
          await writeFile(args.cache, JSON.stringify(results, null, 1))
        }
      }
  } finally {
    clearInterval(sampler)
    await lab.close()
    await corpus.close()
  }
  const out = {
    about:
      "Lighthouse medians of test/fixtures/perf-corpus (PAGES, UNSEEN_PAGES, HOLDOUT2_PAGES, HOLDOUT3_PAGES and HOLDOUT4_PAGES), measured through the lab mode (bench/perf-lab-corpus.js): mobile, simulated throttling, performance only, 3 runs a page, concurrency 1. `score`/`metrics`: the median run by score; `metricMedians`: each metric's own median.",
    lighthouseVersion: version,
    measuredAt: new Date().toISOString().slice(0, 10),
    pages: Object.fromEntries(
      all
        .filter((p) => (results[p.name] ?? []).some((r) => r.method === 'lab'))
        .map((p) => [p.name, medians(results[p.name].filter((r) => r.method === 'lab').slice(0, args.runs))]),
    ),
  }
  const previous = existsSync(OUT) ? JSON.parse(await readFile(OUT, 'utf8')) : null
  if (previous) {
    // pages measured now replace their old medians, the others keep theirs (and their date)
    const now = Object.keys(out.pages)
    out.pages = { ...previous.pages, ...out.pages }
    if (args.only && previous.measuredAt && !previous.measuredAt.includes(out.measuredAt))
      out.measuredAt = `${previous.measuredAt}; ${now.length} pages on ${out.measuredAt}`
  }
  await writeFile(OUT, `${JSON.stringify(out, null, 1)}\n`)
  if (durations.length > 0)
    process.stdout.write(
      `${durations.length} runs: wall p50 ${pct(durations, 50)} ms, p95 ${pct(durations, 95)} ms; browser tree peak PSS ${(peak / 1048576).toFixed(0)} MB\n`,
    )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
