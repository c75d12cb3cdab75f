// @ts-check
/**
 * What the performance estimate adds to a check, per page of the corpora (test/fixtures/perf-corpus):
 * the subresource gather (its wall time, details.subresources.elapsedMs: the requests the document
 * alone would not need) plus judging the signals (the simulation and its cost ranking, which
 * simulates the page again once per cause; the other signals' judging is a few string operations).
 *
 *   npm run build && node bench/estimate-cost.js [--rounds 3]
 *
 * Prints p50/p95/max of each part and of their sum over every page and round (loopback targets, so
 * the gather's time is the work and the fetch overhead, not a network's latency).
 */
import { performance } from 'node:perf_hooks'
import { probe } from '../dist/checks/index.js'
import { evaluate } from '../dist/checks/evaluate.js'
import { parseTargetUrl } from '../dist/checks/guard.js'
import { PAGES, startCorpus } from '../test/fixtures/perf-corpus/corpus.js'
import { HOLDOUT2_PAGES } from '../test/fixtures/perf-corpus/holdout2.js'
import { HOLDOUT3_PAGES } from '../test/fixtures/perf-corpus/holdout3.js'
import { UNSEEN_PAGES } from '../test/fixtures/perf-corpus/unseen.js'

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 3) || 3
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]
}

const pages = [...PAGES, ...UNSEEN_PAGES, ...HOLDOUT2_PAGES, ...HOLDOUT3_PAGES]
const corpus = await startCorpus({ pages })
const gather = []
const judge = []
const total = []
try {
  for (let round = 0; round < rounds; round++)
    for (const p of pages) {
      const result = await probe(parseTargetUrl(corpus.url(p.name)), { allowPrivateTargets: true })
      const started = performance.now()
      evaluate(result, new Date(result.startedAt))
      const judged = performance.now() - started
      const gathered = result.critical?.elapsedMs ?? 0
      gather.push(gathered)
      judge.push(judged)
      total.push(gathered + judged)
    }
} finally {
  await corpus.close()
}
const line = (name, xs) =>
  `${name.padEnd(26)} p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`
process.stdout.write(
  [
    `${pages.length} pages × ${rounds} rounds`,
    line('subresource gather', gather),
    line('simulation + cost ranking', judge),
    line('added per check', total),
  ].join('\n') + '\n',
)
