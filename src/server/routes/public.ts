/** The public routes of docs/api.md#routes. Auth, rate limits and credits are applied here, in that order. */
import type { H3Event } from 'h3'
import {
  API_VERSION,
  PATHS,
  RunBatchRequest,
  RunRequest,
  type RunBatchResult,
  SERVICE_META,
  SERVICE_NAME,
  type CreditBalance,
  type Health,
  type Meta,
  type RecentChecks,
  type RunResult,
  type SavedCheck,
} from '../../contract/index.js'
import { judgeReport } from '../../monitors/index.js'
import { isUuid } from '../../monitors/ids.js'
import { runForUser } from '../../runs/index.js'
import type { CheckRecord, KeyRecord } from '../../store/types.js'
import { MAX_BATCH_BODY_BYTES } from '../../contract/routes.js'
import { envelopeOf } from '../render-error.js'
import { parseWith, readJson } from '../../http/body.js'
import { pageQuery, TIME_CURSOR } from '../page-query.js'
import type { ServerOptions } from '../context.js'
import { badRequest, notFound } from '../../http/errors.js'
import { toRunResult } from '../mapping.js'
import { FailureBudget } from '../../runs/index.js'
import { DEFAULT_CAPACITY_WAIT_MS, keyGuard, refusedAsServiceError, runDeps } from '../guard.js'
import type { RateLimiter } from '../../http/rate-limit.js'

export const USAGE_NOTE =
  'Each successful saved check costs 1 credit. Invalid or blocked URLs, failed checks and requests without enough credits cost nothing.'

export { DEFAULT_CAPACITY_WAIT_MS }

export function publicRoutes(
  opts: ServerOptions,
  limiter: RateLimiter,
  inFlight: Set<Promise<unknown>>,
  failures = new FailureBudget(opts.failurePolicy),
) {
  const { store } = opts
  const deps = runDeps(opts)
  const capacityWaitMs = opts.capacityWaitMs ?? DEFAULT_CAPACITY_WAIT_MS
  const guard = keyGuard(opts, limiter)

  const origin = (event: H3Event) => (opts.publicUrl ?? event.url.origin).replace(/\/+$/, '')

  const requestIdOf = (event: H3Event) =>
    typeof event.context.requestId === 'string' ? event.context.requestId : undefined

  /** One check of a key's user: saved and charged, or thrown as the service error it maps to. */
  async function runOne(event: H3Event, key: KeyRecord, req: RunRequest): Promise<RunResult> {
    const { url, pagespeed, assertions } = req
    try {
      const done = await runForUser(deps, key.user_id, url, {
        // on-demand checks are measured in the lab browser when the server has one (docs/decisions.md#performance-lab-and-estimate)
        pagespeed: pagespeed ?? 'lab',
        waitMs: capacityWaitMs,
        budget: { failures, key: key.id },
        inFlight,
        requestId: requestIdOf(event),
      })
      const result = toRunResult(done.check, done.report, done.remaining)
      if (assertions) result.data.assertions = judgeReport(assertions, done.report, done.check.health_score)
      return result
    } catch (err) {
      throw refusedAsServiceError(err)
    }
  }

  async function run(event: H3Event): Promise<RunResult> {
    const key = await guard(event, 'run')
    const body = await readJson(event)
    if (!body || typeof body !== 'object' || !('url' in body))
      throw badRequest('The body must be a JSON object with a `url` field: a full http or https URL.')
    return runOne(event, key, parseWith(RunRequest, body, 'request body'))
  }

  /**
   * Many checks in one request (for CI: `sitehealth test`): one request against the run limit,
   * each check charged, budgeted and slotted as the run route's, at most the user's check slots at
   * a time so they do not wait on each other; each answer is the check's result or its envelope.
   */
  async function runBatch(event: H3Event): Promise<RunBatchResult> {
    const key = await guard(event, 'run')
    const { checks } = parseWith(RunBatchRequest, await readJson(event, MAX_BATCH_BODY_BYTES), 'request body')
    const results: RunBatchResult['results'] = new Array(checks.length)
    const requestId = requestIdOf(event) ?? ''
    let next = 0
    const worker = async () => {
      for (let i = next++; i < checks.length; i = next++)
        results[i] = await runOne(event, key, checks[i]).catch(
          (err: unknown) => envelopeOf(err, requestId, opts).envelope,
        )
    }
    const slots = Math.max(1, Math.min(opts.capacity?.maxPerUser ?? 1, checks.length))
    await Promise.all(Array.from({ length: slots }, worker))
    return { results }
  }

  return {
    [PATHS.health]: {
      GET: (): Health => ({ ok: true, service: SERVICE_NAME, version: API_VERSION }),
    },
    [PATHS.meta]: {
      GET: (event: H3Event): Meta => ({
        ...SERVICE_META,
        docs_url: `${origin(event)}${PATHS.docs}`,
        openapi_url: `${origin(event)}${PATHS.openapi}`,
      }),
    },
    [PATHS.run]: { POST: run },
    [PATHS.runAlias]: { POST: run },
    [PATHS.runBatch]: { POST: runBatch },
    [PATHS.credits]: {
      GET: async (event: H3Event): Promise<CreditBalance> => {
        const key = await guard(event, 'api')
        return creditBalance(await store.users.availableCredits(key.user_id))
      },
    },
    [PATHS.recent]: {
      GET: async (event: H3Event): Promise<RecentChecks> => {
        const key = await guard(event, 'api')
        const { limit, before } = pageQuery(event, TIME_CURSOR)
        const { items, next } = await store.checks.list(key.user_id, { limit, before })
        return {
          checks: items.map(itemView),
          next_cursor: next,
        }
      },
    },
    [PATHS.check]: {
      GET: async (event: H3Event): Promise<SavedCheck> => {
        const key = await guard(event, 'api')
        const id = String(event.context.params?.id ?? '')
        if (!isUuid(id)) throw badRequest('The check id must be a UUID.')
        const check = await store.checks.get(key.user_id, id.toLowerCase())
        if (!check) throw notFound('No check with this id for this API key.')
        return savedView(check)
      },
    },
  }
}

/** The body of GET /credits (also answered by the node-level fast path, fast-path.ts). */
export function creditBalance(creditsRemaining: number): CreditBalance {
  return { credits_remaining: creditsRemaining, plan: null, usage_note: USAGE_NOTE }
}

/** A saved check as listed by recent checks. */
function itemView(c: CheckRecord): RecentChecks['checks'][number] {
  return {
    id: c.id,
    url: c.url,
    status: 'completed',
    health_score: c.health_score,
    risk_level: c.risk_level,
    created_at: c.created_at,
  }
}

/** A saved check in full: the listed fields plus the summary and the signals. */
function savedView(c: CheckRecord): SavedCheck {
  return { ...itemView(c), summary: c.summary, checks: c.checks }
}
