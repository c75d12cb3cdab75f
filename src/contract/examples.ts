/**
 * Realistic examples of every request and response body, keyed by the contract schema's id, for
 * /openapi.json and /docs (and the contract tests that generators such as newman derive from
 * them). A test validates each example against its own schema, so they cannot drift from the
 * shapes. A new schema (monitors, accounts) adds its example here.
 */
import type {
  CreditBalance,
  CreditGrantRequest,
  CreditGrantResult,
  ErrorCode,
  ErrorEnvelope,
  Health,
  Readiness,
  KeyCreated,
  KeyCreateRequest,
  KeyList,
  KeyRevoked,
  Meta,
  RecentChecks,
  RunBatchRequest,
  RunBatchResult,
  RunRequest,
  RunResult,
  SavedCheck,
} from './schemas.js'
import { SERVICE_META } from './schemas.js'
import type {
  Monitor,
  MonitorCreate,
  MonitorEvents,
  MonitorList,
  MonitorPatch,
  MonitorRuns,
} from './monitors.js'
import type { UptimeReport } from './monitoring.js'
import type {
  AccountInfo,
  DeviceCode,
  DeviceCodeRequest,
  DeviceTokenRequest,
  InviteCreated,
  InviteCreateRequest,
  UserCreated,
  UserCreateRequest,
  UserList,
} from './accounts.js'
import { STATUS_PAGE_EXAMPLES } from './status-pages-examples.js'
import { MAINTENANCE_EXAMPLES } from './maintenance-examples.js'

const CHECK_ID = '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d'
const CREATED = '2026-11-23T09:14:07.412Z'

const runRequest: RunRequest = { url: 'https://example.com/' }

const runResult: RunResult = {
  ok: true,
  data: {
    id: CHECK_ID,
    url: 'https://example.com/',
    healthScore: 78,
    status: 'warning',
    riskLevel: 'medium',
    checks: {
      reachability: { status: 'ok', message: 'example.com is up: 200 OK in 0.21 s', responseTimeMs: 212 },
      https: { status: 'ok', message: 'Valid certificate for example.com, 71 days left; TLS 1.3' },
      responseTime: { status: 'ok', message: 'Fast first byte: 0.21 s (under 0.8 s)', responseTimeMs: 212 },
      securityHeaders: {
        status: 'warning',
        message: 'Missing 3 security headers: content-security-policy, x-frame-options, referrer-policy',
        missing: ['content-security-policy', 'x-frame-options', 'referrer-policy'],
      },
      pagespeed: {
        status: 'ok',
        message: 'Compressed, small and served over HTTP/2 (performance 96/100)',
        performanceScore: 96,
      },
    },
    summary:
      'example.com is healthy but needs attention (health 78/100, medium risk): missing 3 security headers: content-security-policy, x-frame-options, referrer-policy.',
    createdAt: CREATED,
  },
  credits: { used: 1, remaining: 41 },
}

const savedCheck: SavedCheck = {
  id: CHECK_ID,
  url: 'https://example.com/',
  status: 'completed',
  health_score: 78,
  risk_level: 'medium',
  created_at: CREATED,
  summary: runResult.data.summary,
  checks: {
    reachability: {
      status: 'ok',
      message: 'example.com is up: 200 OK in 0.21 s',
      details: {
        statusCode: 200,
        finalUrl: 'https://example.com/',
        redirects: [],
        redirectCount: 0,
        responseTimeMs: 212,
        httpVersion: '2',
        score: 100,
        findings: [],
      },
    },
    https_ssl: {
      status: 'ok',
      message: 'Valid certificate for example.com, 71 days left; TLS 1.3',
      details: {
        scheme: 'https',
        subject: 'example.com',
        issuer: 'DigiCert Global G3 TLS ECC SHA384 2020 CA1',
        subjectAltNames: ['example.com', 'www.example.com'],
        validFrom: '2026-01-13T00:00:00.000Z',
        validTo: '2027-02-02T23:59:59.000Z',
        daysLeft: 71,
        authorized: true,
        hostnameMatches: true,
        protocol: 'TLSv1.3',
        httpRedirectsToHttps: true,
        score: 100,
        findings: [],
      },
    },
    response_time: {
      status: 'ok',
      message: 'Fast first byte: 0.21 s (under 0.8 s)',
      details: {
        ttfbMs: 212.4,
        totalMs: 231.9,
        dnsMs: 11.2,
        connectMs: 18.6,
        tlsMs: 39.1,
        serverWaitMs: 143.5,
        redirectMs: 0,
        score: 98,
        findings: [],
      },
    },
    security_headers: {
      status: 'warning',
      message: 'Missing 3 security headers: content-security-policy, x-frame-options, referrer-policy',
      details: {
        missing: ['content-security-policy', 'x-frame-options', 'referrer-policy'],
        present: ['strict-transport-security', 'x-content-type-options'],
        score: 55,
        findings: [
          {
            severity: 'medium',
            message: 'Missing 3 security headers: content-security-policy, x-frame-options, referrer-policy',
          },
        ],
      },
    },
    pagespeed: {
      status: 'ok',
      message: 'Compressed, small and served over HTTP/2 (performance 96/100)',
      details: {
        performanceScore: 96,
        contentEncoding: 'gzip',
        bodyBytesWire: 648,
        bodyBytesDecoded: 1256,
        httpVersion: '2',
        score: 96,
        findings: [],
      },
    },
  },
}

const recentChecks: RecentChecks = {
  checks: [
    {
      id: CHECK_ID,
      url: 'https://example.com/',
      status: 'completed',
      health_score: 78,
      risk_level: 'medium',
      created_at: CREATED,
    },
    {
      id: '0193a5b9-02c7-7d4e-8f10-3b5a6c7d8e9f',
      url: 'https://shop.example.org/',
      status: 'completed',
      health_score: 41,
      risk_level: 'high',
      created_at: '2026-11-23T09:01:52.087Z',
    },
  ],
  next_cursor: '2026-11-23T09:01:52.087Z',
}

const creditBalance: CreditBalance = {
  credits_remaining: 41,
  plan: null,
  usage_note:
    'Each successful saved check costs 1 credit. Invalid or blocked URLs, failed checks and requests without enough credits cost nothing.',
}

const health: Health = { ok: true, service: 'sitehealth', version: 'v1' }
const readiness: Readiness = {
  ok: true,
  status: 'ready',
  checked_at: '2026-11-26T09:14:07.412Z',
  dependencies: [
    { name: 'database', status: 'up', required: true, latency_ms: 2 },
    { name: 'redis', status: 'up', required: false, latency_ms: 1 },
  ],
  scheduler: { status: 'running', failed_ticks: 0 },
}

const meta: Meta = {
  ...SERVICE_META,
  docs_url: 'https://health.example.com/docs',
  openapi_url: 'https://health.example.com/openapi.json',
}

const keyCreateRequest: KeyCreateRequest = { name: 'ci', user: 'acme', credits: 500 }
const keyCreated: KeyCreated = {
  id: '5f0c2b9e-3d41-4a8e-9b7a-6c1d2e3f4a5b',
  name: 'ci',
  key: 'shk_live_4kR9vQ2mX7pL1sT8wZ3nB6yH0cJ5fD2gA9eK7u1N3VdS',
  prefix: 'shk_live_4kR9',
  user_id: 'acme',
  created_at: '2026-11-23T08:00:00.000Z',
}
const keyList: KeyList = {
  keys: [
    {
      id: keyCreated.id,
      name: 'ci',
      prefix: 'shk_live_4kR9',
      user_id: 'acme',
      created_at: '2026-11-23T08:00:00.000Z',
      last_used_at: CREATED,
      revoked_at: null,
    },
  ],
}
const keyRevoked: KeyRevoked = { id: keyCreated.id, revoked_at: '2026-11-23T10:30:00.000Z' }
const creditGrantRequest: CreditGrantRequest = { amount: 1000 }
const creditGrantResult: CreditGrantResult = { user_id: 'acme', credits_remaining: 1041 }

/** One example body per contract schema id. */
const MONITOR_ID = '0193a5b0-2c41-7d5e-8f60-1a2b3c4d5e6f'
const WEBHOOK_ID = '0193a5b0-2c41-7d5e-8f60-6f5e4d3c2b1a'
const SLACK_ID = '0193a5b0-2c41-7d5e-8f60-0a1b2c3d4e5f'

const monitorCreate: MonitorCreate = {
  url: 'https://shop.example.com/',
  interval_seconds: 300,
  name: 'Shop',
  tags: ['env:prod', 'team:web'],
  alerts: { down_after: 2, min_score: 70, recover_after: 1, remind_every_minutes: 60 },
  channels: [
    { type: 'webhook', url: 'https://hooks.example.com/sitehealth' },
    { type: 'slack', url: 'https://hooks.slack.com/services/T000/B000/XXXXXXXX' },
  ],
}

const monitorPatch: MonitorPatch = { paused: true }

const monitor: Monitor = {
  type: 'http',
  grace_seconds: null,
  host: null,
  port: null,
  timeout_seconds: null,
  starttls: null,
  record_type: null,
  resolver: null,
  count: null,
  assertions: [
    { source: 'status_code', comparison: 'equals', target: 200 },
    { source: 'text_body', comparison: 'contains', target: 'Add to cart' },
  ],
  tags: ['env:prod', 'team:web'],
  uptime: { '24h': 100, '7d': 99.93, '30d': 99.71 },
  id: MONITOR_ID,
  ref: 'shop',
  url: 'https://shop.example.com/',
  name: 'Shop',
  interval_seconds: 300,
  pagespeed: 'estimate',
  paused: false,
  paused_reason: null,
  state: 'up',
  last_check: {
    id: CHECK_ID,
    health_score: 78,
    risk_level: 'medium',
    status: 'warning',
    created_at: CREATED,
  },
  next_run_at: '2026-11-23T09:19:07.412Z',
  created_at: '2026-11-20T16:02:51.930Z',
  updated_at: CREATED,
  alerts: { down_after: 2, min_score: 70, recover_after: 1, remind_every_minutes: 60 },
  channels: [
    {
      id: WEBHOOK_ID,
      type: 'webhook',
      target: 'https://hooks.example.com/…',
      name: 'ops-hook',
      source: '${OPS_WEBHOOK_URL}',
      fingerprint: 'sha256:5f0c6b3e1d2a4c8b9e7f6a5d4c3b2a19f8e7d6c5b4a39281706f5e4d3c2b1a09',
    },
    {
      id: SLACK_ID,
      type: 'slack',
      target: 'https://hooks.slack.com/…',
      name: null,
      source: null,
      fingerprint: 'sha256:0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
    },
  ],
}

/** A week in daily buckets: one outage of 20 minutes on the 21st. */
const uptimeReport: UptimeReport = {
  from: '2026-11-18T00:00:00.000Z',
  to: '2026-11-25T09:30:00.000Z',
  uptime_percent: 99.81,
  runs: 10_650,
  failed_runs: 20,
  downtime_seconds: 1200,
  response_time_ms: { p50: 182.4, p95: 231.9 },
  buckets: [
    ['2026-11-18', 100, 1440, 0, 180.2],
    ['2026-11-19', 100, 1440, 0, 175.9],
    ['2026-11-20', 100, 1440, 0, 182.4],
    ['2026-11-21', 98.61, 1440, 20, 231.9],
    ['2026-11-22', 100, 1440, 0, 178.3],
    ['2026-11-23', 100, 1440, 0, 181],
    ['2026-11-24', 100, 1440, 0, 184.6],
    ['2026-11-25', 100, 570, 0, 179.1],
  ].map(([day, up, runs, failed, rt]) => ({
    start: `${day}T00:00:00.000Z`,
    uptime_percent: up as number,
    runs: runs as number,
    failed_runs: failed as number,
    avg_response_time_ms: rt as number,
    avg_health_score: 91,
  })),
}

const monitorList: MonitorList = { monitors: [monitor], next_cursor: null }

const monitorRuns: MonitorRuns = {
  runs: [
    {
      id: '0193a5c4-8f2e-7b1a-9c3d-aa0000000002',
      started_at: CREATED,
      outcome: 'saved',
      trigger: 'schedule',
      check_id: CHECK_ID,
      health_score: 78,
      response_time_ms: 212,
      state: 'up',
      error: null,
      assertions: [
        {
          source: 'status_code',
          property: null,
          comparison: 'equals',
          target: 200,
          passed: true,
          actual: 200,
        },
        {
          source: 'text_body',
          property: null,
          comparison: 'contains',
          target: 'Add to cart',
          passed: true,
          actual: '<!doctype html><html lang="en"><head><title>Shop</title>…',
        },
      ],
      details: null,
    },
    {
      id: '0193a5c0-1a2b-7c3d-8e4f-aa0000000001',
      started_at: '2026-11-23T09:09:07.402Z',
      outcome: 'failed',
      trigger: 'schedule',
      check_id: null,
      health_score: null,
      response_time_ms: null,
      state: 'down',
      error: { code: 'check_failed', message: 'Could not connect to shop.example.com: connection refused.' },
      assertions: [],
      details: null,
    },
  ],
  next_cursor: '0193a5c0-1a2b-7c3d-8e4f-aa0000000001',
}

const monitorEvents: MonitorEvents = {
  events: [
    {
      id: '0193a5c4-8f40-7b1a-9c3d-ee0000000002',
      event: 'monitor.up',
      occurred_at: CREATED,
      message: 'shop.example.com is up again: 200 OK in 0.21 s',
      previous_state: 'down',
      state: 'up',
      check_id: CHECK_ID,
      deliveries: [
        {
          channel_id: WEBHOOK_ID,
          type: 'webhook',
          status: 'delivered',
          attempts: 1,
          last_attempt_at: '2026-11-23T09:14:07.901Z',
          last_error: null,
        },
        {
          channel_id: SLACK_ID,
          type: 'slack',
          status: 'failed',
          attempts: 5,
          last_attempt_at: '2026-11-23T09:14:39.120Z',
          last_error: 'HTTP 404 from hooks.slack.com',
        },
      ],
    },
  ],
  next_cursor: null,
}

const deviceCodeRequest: DeviceCodeRequest = { name: 'laptop' }
const deviceCode: DeviceCode = {
  device_code: 'GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS',
  user_code: 'WDJB-MJHT',
  verification_uri: 'https://sitehealth.example.com/device',
  verification_uri_complete: 'https://sitehealth.example.com/device?code=WDJB-MJHT',
  expires_in: 900,
  interval: 5,
}
const deviceTokenRequest: DeviceTokenRequest = { device_code: deviceCode.device_code }
const userCreateRequest: UserCreateRequest = { email: 'ana@example.com', credits: 100 }
const accountInfo: AccountInfo = {
  user_id: 'acc_0193a5b02c417d5e',
  email: 'ana@example.com',
  admin: false,
  disabled_at: null,
  created_at: CREATED,
  credits_remaining: 100,
  password_set: true,
}
const userCreated: UserCreated = {
  ...accountInfo,
  password_set: false,
  setup_url: 'https://sitehealth.example.com/invite/3q2-7vHkJb0yQm5Zr8sWx1',
}
const userList: UserList = { users: [accountInfo] }
const inviteCreateRequest: InviteCreateRequest = { email: 'ben@example.com', credits: 50 }
const inviteCreated: InviteCreated = {
  invite_url: 'https://sitehealth.example.com/invite/Yk8-2mQv9TzL4pRc7nWd0s',
  expires_at: '2026-11-30T09:14:07.412Z',
}

const runBatchRequest: RunBatchRequest = {
  checks: [
    { url: 'https://example.com/' },
    {
      url: 'https://api.example.com/health',
      assertions: [{ source: 'status_code', comparison: 'equals', target: 200 }],
    },
  ],
}
const runBatchResult: RunBatchResult = {
  results: [
    runResult,
    {
      ok: false,
      error: {
        code: 'check_failed',
        message: 'The site did not answer: connection refused (api.example.com).',
        request_id: 'req_0193a7c4e2f87b55',
      },
    },
  ],
}

export const EXAMPLES: Record<string, unknown> = {
  RunRequest: runRequest,
  RunResult: runResult,
  RunBatchRequest: runBatchRequest,
  RunBatchResult: runBatchResult,
  SavedCheck: savedCheck,
  RecentChecks: recentChecks,
  CreditBalance: creditBalance,
  Health: health,
  Readiness: readiness,
  Meta: meta,
  KeyCreateRequest: keyCreateRequest,
  KeyCreated: keyCreated,
  KeyList: keyList,
  KeyRevoked: keyRevoked,
  CreditGrantRequest: creditGrantRequest,
  CreditGrantResult: creditGrantResult,
  MonitorCreate: monitorCreate,
  MonitorPatch: monitorPatch,
  Monitor: monitor,
  MonitorList: monitorList,
  MonitorRuns: monitorRuns,
  MonitorEvents: monitorEvents,
  UptimeReport: uptimeReport,
  DeviceCodeRequest: deviceCodeRequest,
  DeviceCode: deviceCode,
  DeviceTokenRequest: deviceTokenRequest,
  UserCreateRequest: userCreateRequest,
  UserCreated: userCreated,
  UserList: userList,
  AccountInfo: accountInfo,
  InviteCreateRequest: inviteCreateRequest,
  InviteCreated: inviteCreated,
  ...STATUS_PAGE_EXAMPLES,
  ...MAINTENANCE_EXAMPLES,
}

const REQUEST_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7'
const envelope = (code: ErrorCode, message: string): ErrorEnvelope => ({
  ok: false,
  error: { code, message, request_id: REQUEST_ID },
})

/** A realistic error body for each code (several for the codes with distinct causes). */
export const ERROR_EXAMPLES: Record<ErrorCode, Record<string, { summary: string; value: ErrorEnvelope }>> = {
  invalid_url: {
    blocked: {
      summary: 'A URL blocked for safety',
      value: envelope(
        'invalid_url',
        'Blocked for safety: intranet.example resolves to a private or local address',
      ),
    },
    scheme: {
      summary: 'An unsupported scheme',
      value: envelope('invalid_url', 'Only http and https URLs can be checked (got ftp:)'),
    },
    body: {
      summary: 'A body with an unknown field',
      value: envelope('invalid_url', 'Invalid request body: Unrecognized key: "extra"'),
    },
  },
  invalid_api_key: {
    missing: {
      summary: 'No or unknown key',
      value: envelope(
        'invalid_api_key',
        'Invalid or missing API key. Send it as `Authorization: Bearer <key>`.',
      ),
    },
  },
  revoked_api_key: {
    revoked: {
      summary: 'A revoked key',
      value: envelope('revoked_api_key', 'This API key has been revoked. Create a new key to continue.'),
    },
  },
  insufficient_credits: {
    empty: {
      summary: 'No credits left',
      value: envelope(
        'insufficient_credits',
        'Not enough credits to run a check. Ask your administrator for more credits.',
      ),
    },
  },
  check_failed: {
    refused: {
      summary: 'The site refused the connection',
      value: envelope('check_failed', 'Could not connect to example.com:443: connection refused'),
    },
    timeout: {
      summary: 'No answer in time',
      value: envelope('check_failed', 'No answer from example.com within 15 s'),
    },
  },
  rate_limited: {
    runs: {
      summary: 'Too many runs in the window',
      value: envelope('rate_limited', 'Too many requests: at most 10 per 60 s for this key. Retry in 42 s.'),
    },
    failures: {
      summary: 'Too many failed checks in the window',
      value: envelope(
        'rate_limited',
        'Too many failed checks: at most 30 per 3600 s for this key. Retry in 1312 s.',
      ),
    },
  },
  internal_error: {
    generic: {
      summary: 'An unexpected failure',
      value: envelope('internal_error', 'Something went wrong on our side. Please try again in a moment.'),
    },
  },
  not_found: {
    check: {
      summary: 'No such check for this key',
      value: envelope('not_found', 'No check with this id for this API key.'),
    },
  },
  method_not_allowed: {
    method: {
      summary: 'A method the path does not support',
      value: envelope('method_not_allowed', 'GET is not allowed on /api/public/v1/checks/run; use POST.'),
    },
  },
  conflict: {
    slug: {
      summary: 'A status page slug another page has (or a reserved word)',
      value: envelope('conflict', 'The slug "acme" is taken: choose another (slug).'),
    },
    ref: {
      summary: 'A ref another monitor of this user carries',
      value: envelope('conflict', 'Another of your monitors already has the ref "api-health".'),
    },
  },
  server_busy: {
    busy: {
      summary: 'Every check slot is taken',
      value: envelope(
        'server_busy',
        'The server is running its maximum of 64 checks at once; nothing was charged. Retry in a few seconds.',
      ),
    },
  },
  service_unavailable: {
    unavailable: {
      summary: 'A dependency (the database, the disk) is down or not answering',
      value: envelope(
        'service_unavailable',
        'The service is temporarily unavailable (the database did not answer in time); nothing was charged. Retry in a few seconds.',
      ),
    },
  },
}
