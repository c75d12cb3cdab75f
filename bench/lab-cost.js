// @ts-check
/**
 * What a lab run costs on this machine: `sitehealth serve --lab-browser /usr/bin/chromium` (the
 * built CLI, as users start it) at --lab-concurrency 1 and then 2, the same checks through the API
 * against pages of the performance corpus on loopback. Per level: the lab run's wall time (from
 * the saved check's details.lab.durationMs: queue wait excluded), the client's time per check
 * (queue included), throughput (checks a minute over the whole batch), and the peak PSS of the
 * browser's process tree (every descendant of serve, read from /proc/PID/smaps_rollup every
 * 250 ms) and of serve itself. CPU heavy: run it alone, under the bench lock.
 *
 *   npm run build && flock /tmp/bench.lock node bench/lab-cost.js [--checks 12]
 *
 * At concurrency 1 the checks go one after another; at 2 the client keeps four in flight, so the
 * lab's queue is never empty and throughput measures the lab, not the client.
 */
import { performance } from 'node:perf_hooks'
import { clearInterval, setInterval } from 'node:timers'
import { api, cleanup, makeTempDir, NO_LIMITS, PUBLIC, startServe, summarize } from './lib.js'
import { processTree, pssBytes } from './perf-lab-corpus.js'
import { startCorpus } from '../test/fixtures/perf-corpus/corpus.js'

const checks = Number(process.argv[process.argv.indexOf('--checks') + 1] || 12) || 12
/** A mix of the first corpus: text, CSS, scripts, images, fonts (each a different load). */
const MIX = ['tiny', 'css-small', 'js-defer-400k', 'img-hero-150k', 'fonts-block', 'medium-mixed']
const MB = 1024 * 1024
const p95 = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(0.95 * s.length) - 1))] ?? 0
}

async function level(concurrency, corpus) {
  const dataDir = await makeTempDir(`lab${concurrency}`)
  const serve = await startServe({
    dataDir,
    args: [
      ...NO_LIMITS,
      '--lab-browser',
      '/usr/bin/chromium',
      '--lab-concurrency',
      String(concurrency),
      '--lab-timeout',
      '120',
    ],
  })
  const { key } = await serve.createKey({ credits: 1000 })
  const servePid = /** @type {number} */ (serve.child.pid)
  let peakBrowser = 0
  let peakServe = 0
  const sample = async () => {
    const tree = await processTree(servePid)
    const [all, own] = await Promise.all([pssBytes(tree), pssBytes([servePid])])
    peakBrowser = Math.max(peakBrowser, all - own)
    peakServe = Math.max(peakServe, own)
  }
  const sampler = setInterval(() => void sample(), 250)
  const labMs = []
  const clientMs = []
  let fallbacks = 0
  /** @type {string[]} */
  const reasons = []
  const started = performance.now()
  const queue = Array.from({ length: checks }, (_, i) => MIX[i % MIX.length])
  const worker = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const t0 = performance.now()
      const run = await api(serve.url, `${PUBLIC}/checks/run`, {
        method: 'POST',
        token: key,
        body: { url: corpus.url(name) },
      })
      clientMs.push(performance.now() - t0)
      if (run.status !== 200) throw new Error(`run ${name}: HTTP ${run.status} ${JSON.stringify(run.body)}`)
      const saved = await api(serve.url, `${PUBLIC}/checks/${run.body.data.id}`, { token: key })
      const d = saved.body.checks.pagespeed.details
      if (d.method === 'lab') labMs.push(d.lab.durationMs)
      else {
        fallbacks++
        reasons.push(d.lab?.reason ?? 'no lab outcome')
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency === 1 ? 1 : concurrency * 2 }, worker))
  const elapsed = performance.now() - started
  clearInterval(sampler)
  await sample()
  await serve.stop()
  return { concurrency, labMs, clientMs, fallbacks, reasons, elapsed, peakBrowser, peakServe }
}

const corpus = await startCorpus()
try {
  const rows = []
  const levels = process.argv.includes('--only-2') ? [2] : [1, 2]
  for (const c of levels) rows.push(await level(c, corpus))
  const base = rows[0].labMs.length / rows[0].elapsed
  for (const r of rows) {
    const lab = summarize(r.labMs.length ? r.labMs : [0])
    const client = summarize(r.clientMs)
    const perMin = (r.labMs.length / r.elapsed) * 60_000
    process.stdout.write(
      `--lab-concurrency ${r.concurrency}: ${r.labMs.length} measured, ${r.fallbacks} fell back; lab run p50 ${(lab.p50 / 1000).toFixed(1)} s, p95 ${(p95(r.labMs) / 1000).toFixed(1)} s, ` +
        `client per check p50 ${(client.p50 / 1000).toFixed(1)} s; throughput ${perMin.toFixed(1)} checks/min (${(r.labMs.length / r.elapsed / base).toFixed(2)}× of 1); ` +
        `peak PSS browser tree ${(r.peakBrowser / MB).toFixed(0)} MB, serve ${(r.peakServe / MB).toFixed(0)} MB\n`,
    )
    process.stdout.write(`  lab ms: ${r.labMs.map((v) => Math.round(v)).join(', ')}\n`)
    for (const reason of new Set(r.reasons))
      process.stdout.write(`  fell back ${r.reasons.filter((x) => x === reason).length}×: ${reason}\n`)
  }
} finally {
  await corpus.close()
  await cleanup()
}
