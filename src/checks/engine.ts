/**
 * The engine's entry point: validate, gather, judge. A URL that is malformed or blocked fails
 * before any packet leaves; everything after that is the probe's and the signals' business.
 */
import { performance } from 'node:perf_hooks'
import { evaluate } from './evaluate.js'
import { assertTargetAllowed, parseTargetUrl } from './guard.js'
import { probe } from './probe.js'
import type { CheckOptions, CheckReport } from './types.js'

export async function runCheck(input: unknown, opts: CheckOptions = {}): Promise<CheckReport> {
  const startedAt = new Date()
  const start = performance.now()
  const url = parseTargetUrl(input)
  assertTargetAllowed(url, { allowPrivateTargets: opts.allowPrivateTargets })
  const result = await probe(url, opts)
  return {
    ...evaluate(result, new Date(result.startedAt)),
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - start),
  }
}
