/** The seven routes of spec §4. Auth, rate limits and credits are applied here, in that order. */
import type { H3Event } from 'h3'
import { CheckError } from '../../checks/errors.js'
import { assertTargetAllowed, parseTargetUrl } from '../../checks/guard.js'
import { runCheck } from '../../checks/index.js'
import {
  API_VERSION,
  PAGE_SIZES,
  PATHS,
  RunRequest,
  SERVICE_NAME,
  type CreditBalance,
  type Health,
  type Meta,
  type RecentChecks,
  type RunResult,
  type SavedCheck,
} from '../../contract/index.js'
import type { CheckRecord, KeyRecord } from '../../store/types.js'
import { authenticate } from '../auth.js'
import { parseWith, readJson } from '../body.js'
import type { ServerOptions } from '../context.js'
import { ServiceError, badRequest, notFound } from '../errors.js'
import { toCheckRecord, toRunResult } from '../mapping.js'
import type { RateLimiter } from '../rate-limit.js'

export const USAGE_NOTE =
  'Each successful saved check costs 1 credit. Invalid or blocked URLs, failed checks and requests without enough credits cost nothing.'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/

export function publicRoutes(opts: ServerOptions, limiter: RateLimiter, inFlight: Set<Promise<unknown>>) {
  const { store, limits } = opts
  const runPolicy = { name: 'run', limit: limits.runLimit, windowMs: limits.runWindowSec * 1000 }
  const apiPolicy = { name: 'api', limit: limits.apiLimit, windowMs: limits.apiWindowSec * 1000 }

  /** Authenticate, then count the request against the key's window (400s and 402s count too). */
  function guard(event: H3Event, policy: typeof runPolicy): KeyRecord {
    const key = authenticate(event, store)
    const decision = limiter.hit(key.id, policy)
    Object.assign(event.context.extraHeaders as Record<string, string>, decision.headers)
    if (!decision.allowed)
      throw new ServiceError(
        429,
        'rate_limited',
        `Too many requests: at most ${policy.limit} per ${policy.windowMs / 1000} s for this key. Retry in ${decision.resetSec} s.`,
      )
    return key
  }

  const origin = (event: H3Event) => (opts.publicUrl ?? event.url.origin).replace(/\/+$/, '')

  async function run(event: H3Event): Promise<RunResult> {
    const key = guard(event, runPolicy)
    const body = await readJson(event)
    if (!body || typeof body !== 'object' || !('url' in body))
      throw badRequest('The body must be a JSON object with a `url` field: a full http or https URL.')
    const { url } = parseWith(RunRequest, body, 'request body')
    let target: URL
    try {
      target = parseTargetUrl(url)
      assertTargetAllowed(target, { allowPrivateTargets: opts.allowPrivateTargets })
    } catch (err) {
      throw fromCheckError(err)
    }
    if (!store.reserveCredit(key.user_id))
      throw new ServiceError(
        402,
        'insufficient_credits',
        'Not enough credits to run a check. Ask your administrator for more credits.',
      )
    const work = (async () => {
      let report
      try {
        report = await runCheck(target.href, {
          allowPrivateTargets: opts.allowPrivateTargets,
          totalTimeoutMs: opts.checkTimeoutMs,
        })
      } catch (err) {
        store.releaseCredit(key.user_id)
        throw fromCheckError(err)
      }
      let saved
      try {
        saved = await store.commitCheck({ user_id: key.user_id, ...toCheckRecord(report) })
      } catch (err) {
        store.releaseCredit(key.user_id)
        throw err
      }
      return toRunResult(saved.check, report, saved.remaining)
    })()
    inFlight.add(work)
    try {
      return await work
    } finally {
      inFlight.delete(work)
    }
  }

  return {
    [PATHS.health]: {
      GET: (): Health => ({ ok: true, service: SERVICE_NAME, version: API_VERSION }),
    },
    [PATHS.meta]: {
      GET: (event: H3Event): Meta => ({
        service: SERVICE_NAME,
        description:
          'Live website health checks: reachability, HTTPS and certificate, response time, security headers and performance, turned into a health score, a risk level and a one-sentence summary.',
        capabilities: [
          'website_health_check',
          'check_results',
          'recent_checks',
          'risk_summary',
          'client_website_monitoring',
        ],
        recommended_for: [
          'site owners checking a deployment',
          'agencies monitoring client websites',
          'CI pipelines gating a release on site health',
          'AI agents asked whether a website is healthy',
        ],
        agent_use_cases: [
          'check a URL before recommending or linking it',
          'explain why a website is slow, insecure or down',
          'watch a list of client sites and report the ones that need attention',
          'verify a fix by re-checking and comparing with an earlier saved check',
        ],
        docs_url: `${origin(event)}${PATHS.docs}`,
        openapi_url: `${origin(event)}${PATHS.openapi}`,
      }),
    },
    [PATHS.run]: { POST: run },
    [PATHS.runAlias]: { POST: run },
    [PATHS.credits]: {
      GET: (event: H3Event): CreditBalance => {
        const key = guard(event, apiPolicy)
        return { credits_remaining: store.availableCredits(key.user_id), plan: null, usage_note: USAGE_NOTE }
      },
    },
    [PATHS.recent]: {
      GET: async (event: H3Event): Promise<RecentChecks> => {
        const key = guard(event, apiPolicy)
        const q = event.url.searchParams
        const limits = q.getAll('limit')
        const cursors = q.getAll('cursor')
        if (limits.length > 1 || cursors.length > 1)
          throw badRequest('Give `limit` and `cursor` at most once each.')
        const limit = limits.length ? Number(limits[0]) : 10
        if (!(PAGE_SIZES as readonly number[]).includes(limit) || !/^\d+$/.test(limits[0] ?? '10'))
          throw badRequest('`limit` must be 10, 25 or 50.')
        const cursor = cursors[0]
        if (cursor !== undefined && (!ISO.test(cursor) || Number.isNaN(Date.parse(cursor))))
          throw badRequest(
            '`cursor` must be the `next_cursor` value of a previous page (an ISO 8601 date-time).',
          )
        const before = cursor === undefined ? undefined : new Date(cursor).toISOString()
        const { items, next } = await store.listChecks(key.user_id, { limit, before })
        return {
          checks: items.map(itemView),
          next_cursor: next,
        }
      },
    },
    [PATHS.check]: {
      GET: async (event: H3Event): Promise<SavedCheck> => {
        const key = guard(event, apiPolicy)
        const id = String(event.context.params?.id ?? '')
        if (!UUID.test(id)) throw badRequest('The check id must be a UUID.')
        const check = await store.getCheck(key.user_id, id.toLowerCase())
        if (!check) throw notFound('No check with this id for this API key.')
        return savedView(check)
      },
    },
  }
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

function fromCheckError(err: unknown): unknown {
  if (err instanceof CheckError)
    return err.code === 'invalid_url'
      ? new ServiceError(400, 'invalid_url', err.message)
      : new ServiceError(502, 'check_failed', err.message)
  return err
}
