/**
 * The wire shapes of the public API (docs/api.md#routes) and the admin API (docs/decisions.md#admin-api),
 * declared once. The server validates and serialises with them, /openapi.json is generated from
 * them, the typed client and the MCP tools reuse them. Field names follow the spec exactly:
 * camelCase in the run result, snake_case everywhere else.
 */
import { z } from 'zod'
import { MAX_BATCH_CHECKS, MAX_URL_LENGTH } from './routes.js'
import { KeyName } from './key-name.js'
import { AssertionResult, Assertions } from './monitoring.js'

export const SERVICE_NAME = 'sitehealth'
export const API_VERSION = 'v1'

export const SIGNAL_STATUSES = ['ok', 'warning', 'needs_review', 'unavailable'] as const
export const SignalStatus = z.enum(SIGNAL_STATUSES).meta({
  id: 'SignalStatus',
  description:
    'ok: nothing to fix; warning: worth fixing; needs_review: a real problem; unavailable: could not be judged.',
})
export type SignalStatus = z.infer<typeof SignalStatus>

export const RISK_LEVELS = ['low', 'medium', 'high', 'unknown'] as const
/** The spec enumerates four values but its own sample carries another: clients treat it as an open string. */
export const RiskLevel = z.union([z.enum(RISK_LEVELS), z.string()]).meta({
  id: 'RiskLevel',
  description: 'low, medium, high or unknown. Clients must accept other strings too (an open enumeration).',
})
export type RiskLevel = (typeof RISK_LEVELS)[number]

export const ERROR_CODES = [
  'invalid_api_key',
  'revoked_api_key',
  'insufficient_credits',
  'invalid_url',
  'check_failed',
  'rate_limited',
  'internal_error',
  'not_found',
  'method_not_allowed',
  'server_busy',
  'conflict',
  'service_unavailable',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export const ErrorEnvelope = z
  .object({
    ok: z.literal(false),
    error: z.object({
      code: z.string().meta({ description: `One of: ${ERROR_CODES.join(', ')}.` }),
      message: z.string(),
      request_id: z.string().optional(),
    }),
  })
  .meta({ id: 'ErrorEnvelope', description: 'Every error response.' })
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>

export const SIGNAL_NAMES = [
  'reachability',
  'https_ssl',
  'response_time',
  'security_headers',
  'pagespeed',
] as const
export type SignalName = (typeof SIGNAL_NAMES)[number]

export const CheckSignal = z
  .object({
    status: SignalStatus,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional().meta({ description: 'What was measured.' }),
  })
  .meta({ id: 'CheckSignal' })
export type CheckSignal = z.infer<typeof CheckSignal>

const Uuid = z.uuid()
const DateTime = z.iso.datetime({ offset: true })
const Score = z.int().min(0).max(100)

export const RecentCheck = z
  .object({
    id: Uuid,
    url: z.string().meta({ format: 'uri', description: 'The checked URL.' }),
    status: z.literal('completed'),
    health_score: Score,
    risk_level: RiskLevel,
    created_at: DateTime,
  })
  .meta({ id: 'RecentCheck' })
export type RecentCheck = z.infer<typeof RecentCheck>

export const SavedCheck = RecentCheck.extend({
  summary: z.string(),
  checks: z.object({
    reachability: CheckSignal,
    https_ssl: CheckSignal,
    response_time: CheckSignal,
    security_headers: CheckSignal,
    pagespeed: CheckSignal,
  }),
}).meta({ id: 'SavedCheck' })
export type SavedCheck = z.infer<typeof SavedCheck>

export const RecentChecks = z
  .object({
    checks: z.array(RecentCheck),
    next_cursor: DateTime.nullable().meta({
      description: 'Pass as `cursor` for the next (older) page; null on the last page.',
    }),
  })
  .meta({ id: 'RecentChecks' })
export type RecentChecks = z.infer<typeof RecentChecks>

/** How the pagespeed signal is judged: Lighthouse in the lab browser, or the browser-less estimate (docs/decisions.md#performance-lab-and-estimate). */
export const PAGESPEED_METHODS = ['lab', 'estimate'] as const
export type PagespeedMethod = (typeof PAGESPEED_METHODS)[number]

const RunSignal = z.object({ status: SignalStatus, message: z.string() })
export const RunResult = z
  .object({
    ok: z.literal(true),
    data: z.object({
      id: Uuid.meta({ description: 'Id of the saved check (GET /api/public/v1/checks/{id}).' }),
      url: z.string().meta({ format: 'uri' }),
      healthScore: Score,
      status: SignalStatus.meta({ description: 'Overall status: the worst meaningful signal.' }),
      riskLevel: RiskLevel,
      checks: z.object({
        reachability: RunSignal.extend({ responseTimeMs: z.int().min(0) }),
        https: RunSignal,
        responseTime: RunSignal.extend({ responseTimeMs: z.int().min(0) }),
        securityHeaders: RunSignal.extend({ missing: z.array(z.string()) }),
        pagespeed: RunSignal.extend({
          performanceScore: z
            .int()
            .min(0)
            .max(100)
            .meta({ description: '0 when the signal is unavailable.' }),
          method: z.enum(PAGESPEED_METHODS).optional().meta({
            description:
              "`lab`: measured by Lighthouse in the server's browser; `estimate`: estimated without a browser (also when a lab run failed). Absent when the signal is unavailable.",
          }),
        }),
      }),
      summary: z.string(),
      createdAt: DateTime,
      assertions: z
        .array(AssertionResult)
        .optional()
        .meta({ description: 'Only when the request carried `assertions`: each judged, in order.' }),
    }),
    credits: z.object({ used: z.int().min(0), remaining: z.int().min(0) }),
  })
  .meta({ id: 'RunResult' })
export type RunResult = z.infer<typeof RunResult>

// strict: the document forbids other fields, so the server refuses them too (the document is the contract)
export const RunRequest = z
  .strictObject({
    url: z
      .string()
      .max(MAX_URL_LENGTH, { message: `The URL is longer than ${MAX_URL_LENGTH} characters` })
      .meta({
        format: 'uri',
        description: `A full http or https URL, at most ${MAX_URL_LENGTH} characters.`,
      }),
    pagespeed: z.enum(PAGESPEED_METHODS).optional().meta({
      description:
        "How performance is judged. Omitted: measured by Lighthouse in the server's lab browser when it has one (`serve --lab-browser`), else estimated. `estimate`: skip the lab run. Either way one credit.",
    }),
    assertions: Assertions.optional().meta({
      description:
        'Assertions judged on this check as a monitor judges its runs (what it fetched: status, headers, body; its score and figures); the answer carries each with `passed` and `actual`. A failed assertion does not fail the request: the check is saved and charged.',
    }),
  })
  .meta({ id: 'RunRequest' })
export type RunRequest = z.infer<typeof RunRequest>

export const RunBatchRequest = z
  .strictObject({
    checks: z
      .array(RunRequest)
      .min(1)
      .max(MAX_BATCH_CHECKS)
      .meta({ description: `1 to ${MAX_BATCH_CHECKS} checks, each as the run route takes it.` }),
  })
  .meta({ id: 'RunBatchRequest' })
export type RunBatchRequest = z.infer<typeof RunBatchRequest>

export const RunBatchResult = z
  .object({
    results: z.array(z.union([RunResult, ErrorEnvelope])).meta({
      description:
        'One per check, in the order asked: the run route’s answer for it, or its error envelope (a site that could not be checked, no credits left, a blocked URL). Only successful checks cost a credit.',
    }),
  })
  .meta({ id: 'RunBatchResult' })
export type RunBatchResult = z.infer<typeof RunBatchResult>

export const CreditBalance = z
  .object({
    credits_remaining: z.int().min(0),
    plan: z.null(),
    usage_note: z.string(),
  })
  .meta({ id: 'CreditBalance' })
export type CreditBalance = z.infer<typeof CreditBalance>

export const Health = z
  .object({ ok: z.literal(true), service: z.string(), version: z.string() })
  .meta({ id: 'Health' })
export type Health = z.infer<typeof Health>

/** What readiness probes and reports: the store's backend, Redis when the limiter uses it. */
export const DEPENDENCY_NAMES = ['database', 'disk', 'redis'] as const

export const DependencyProbe = z
  .object({
    name: z.enum(DEPENDENCY_NAMES).meta({
      description:
        "`database`: PostgreSQL (a `SELECT 1` through the pool); `disk`: the embedded store's data dir (a small durable write); `redis`: the rate-limit windows (a PING).",
    }),
    status: z.enum(['up', 'down']),
    required: z.boolean().meta({
      description:
        'Whether requests fail while it is down. Redis is not required: the in-process limiter takes over.',
    }),
    latency_ms: z
      .int()
      .min(0)
      .meta({ description: 'How long the probe took (capped by the probe timeout).' }),
    reason: z.string().optional().meta({
      description: 'Why it is down, in a fixed phrase (never an address, a user name or a driver message).',
    }),
  })
  .meta({ id: 'DependencyProbe' })
export type DependencyProbe = z.infer<typeof DependencyProbe>

export const Readiness = z
  .object({
    ok: z.boolean(),
    status: z.enum(['ready', 'degraded', 'unavailable']).meta({
      description:
        '`ready`: every dependency answers. `degraded`: one that is not required (Redis) does not; requests are still served. `unavailable` (HTTP 503): the store does not answer or cannot write; requests that need it get 503 `service_unavailable`.',
    }),
    checked_at: z.string().meta({ description: 'When the probes ran (results are reused for one second).' }),
    dependencies: z.array(DependencyProbe),
    scheduler: z
      .object({
        status: z.enum(['running', 'retrying']),
        failed_ticks: z
          .int()
          .min(0)
          .meta({ description: 'Consecutive scheduler ticks that failed (0 while the store answers).' }),
      })
      .nullable()
      .meta({ description: 'The monitor scheduler; null when the server runs none.' }),
    error: ErrorEnvelope.shape.error
      .optional()
      .meta({ description: 'With HTTP 503 only: the envelope of every error, code `service_unavailable`.' }),
  })
  .meta({ id: 'Readiness' })
export type Readiness = z.infer<typeof Readiness>

export const Meta = z
  .object({
    service: z.string(),
    description: z.string(),
    capabilities: z.array(z.string()),
    recommended_for: z.array(z.string()),
    agent_use_cases: z.array(z.string()),
    docs_url: z.string(),
    openapi_url: z.string(),
  })
  .meta({ id: 'Meta' })
export type Meta = z.infer<typeof Meta>

/** What /meta says about the service, whichever server answers (the URLs are the server's own). */
export const SERVICE_META: Omit<Meta, 'docs_url' | 'openapi_url'> = {
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
}

export const PAGE_SIZES = [10, 25, 50] as const
export const RecentQuery = z.object({
  limit: z.enum(['10', '25', '50']).optional().meta({ description: 'Page size: 10, 25 or 50 (default 10).' }),
  cursor: DateTime.optional().meta({ description: 'next_cursor of the previous page.' }),
})

// ---- admin API (docs/decisions.md#admin-api) ----

const UserId = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/)
  .meta({ description: 'User id: 1-64 characters of letters, digits, dot, dash, underscore.' })

export const KeyCreateRequest = z
  .strictObject({
    name: KeyName,
    user: UserId.optional(),
    credits: z.int().min(0).max(1_000_000_000).optional(),
  })
  .meta({ id: 'KeyCreateRequest' })
export type KeyCreateRequest = z.infer<typeof KeyCreateRequest>

export const KeyCreated = z
  .object({
    id: Uuid,
    name: z.string(),
    key: z.string().meta({ description: 'The secret. Shown once, never stored.' }),
    prefix: z.string(),
    user_id: z.string(),
    created_at: DateTime,
  })
  .meta({ id: 'KeyCreated' })
export type KeyCreated = z.infer<typeof KeyCreated>

export const KeyInfo = z
  .object({
    id: Uuid,
    name: z.string(),
    prefix: z.string(),
    user_id: z.string(),
    created_at: DateTime,
    last_used_at: DateTime.nullable(),
    revoked_at: DateTime.nullable(),
  })
  .meta({ id: 'KeyInfo' })
export type KeyInfo = z.infer<typeof KeyInfo>

export const KeyList = z.object({ keys: z.array(KeyInfo) }).meta({ id: 'KeyList' })
export type KeyList = z.infer<typeof KeyList>

export const KeyRevoked = z.object({ id: Uuid, revoked_at: DateTime }).meta({ id: 'KeyRevoked' })
export type KeyRevoked = z.infer<typeof KeyRevoked>

export const CreditGrantRequest = z
  .strictObject({ amount: z.int().min(1).max(1_000_000_000) })
  .meta({ id: 'CreditGrantRequest' })
export type CreditGrantRequest = z.infer<typeof CreditGrantRequest>

export const CreditGrantResult = z
  .object({ user_id: z.string(), credits_remaining: z.int().min(0) })
  .meta({ id: 'CreditGrantResult' })
export type CreditGrantResult = z.infer<typeof CreditGrantResult>

export { UserId }
