/**
 * The engine's entry point: validate, gather, judge. A URL that is malformed or blocked fails
 * before any packet leaves; everything after that is the probe's and the signals' business.
 */
import { performance } from 'node:perf_hooks'
import { evaluate } from './evaluate.js'
import { assertTargetAllowed, parseTargetUrl } from './guard.js'
import { probe } from './probe.js'
import { PAGESPEED } from './thresholds.js'
import type { CheckOptions, CheckReport, ProbeResult } from './types.js'

export async function runCheck(input: unknown, opts: CheckOptions = {}): Promise<CheckReport> {
  const startedAt = new Date()
  const start = performance.now()
  const url = parseTargetUrl(input)
  assertTargetAllowed(url, { allowPrivateTargets: opts.allowPrivateTargets })
  const result = await probe(url, opts)
  // the lab measures what the estimate would judge: a 2xx HTML page (Lighthouse follows the same redirects)
  if (opts.lab && measurable(result)) result.lab = await opts.lab.measure(url.href, opts.labOwner)
  return {
    ...evaluate(result, new Date(result.startedAt)),
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - start),
    answer: {
      status: result.response.status,
      headers: result.response.headers,
      body: result.bodyText ?? null,
    },
  }
}

function measurable(result: ProbeResult): boolean {
  const res = result.response
  const mime = (res.contentType ?? '').split(';')[0].trim().toLowerCase()
  return (
    res.status >= 200 && res.status < 300 && PAGESPEED.htmlTypes.includes(mime) && res.bodyBytesDecoded > 0
  )
}
