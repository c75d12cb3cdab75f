/**
 * The typed API client: one class behind every client command and the MCP server. It talks to any
 * deployment of the public API (and the admin API of docs/decisions.md#admin-api), decodes JSON, and turns every
 * failure into an ApiError carrying the HTTP status, the envelope's code and message, and the
 * request id, so callers map codes to exit codes or tool errors without parsing strings.
 */
import { request } from 'undici'
import {
  PATHS,
  pathFor,
  isWellFormedApiKey,
  type CreditBalance,
  type CreditGrantResult,
  type Health,
  type KeyCreated,
  type KeyList,
  type KeyRevoked,
  type Meta,
  type RecentChecks,
  type RunBatchResult,
  type RunRequest,
  type RunResult,
  type SavedCheck,
  ACCOUNT_PATHS,
  type AccountInfo,
  type DeviceCode,
  type InviteCreated,
  type UserCreated,
  type UserList,
} from '../contract/index.js'
import {
  MONITOR_PATHS,
  type Monitor,
  type MonitorCreate,
  type MonitorEvents,
  type MonitorList,
  type MonitorPatch,
  type MonitorRuns,
  type MonitorRunAnswer,
} from '../contract/monitors.js'
import type { Assertion, UptimeQuery, UptimeReport } from '../contract/monitoring.js'
import {
  STATUS_PAGE_PATHS,
  type StatusIncident,
  type StatusIncidentCreate,
  type StatusIncidentList,
  type StatusIncidentPatch,
  type StatusIncidentUpdateCreate,
  type StatusPage,
  type StatusPageCreate,
  type StatusPageList,
  type StatusPagePatch,
  type SubscriberList,
} from '../contract/status-pages.js'
import {
  MAINTENANCE_PATHS,
  type MaintenanceCreate,
  type MaintenanceList,
  type MaintenancePatch,
  type MaintenanceWindow,
} from '../contract/monitoring.js'

/** Codes the client adds to the API's own (docs/decisions.md#api-open-points). */
export type ClientErrorCode = 'network_error' | 'no_api_key' | 'invalid_response' | 'timeout'

/** How long one request may take by default, seconds: a check on the server takes up to 15 s. */
export const DEFAULT_TIMEOUT_SECONDS = 60

/**
 * The API's own path prefixes: a base URL copied from the docs with one of them on the end
 * (`https://host/api/public/v1`) means the deployment's root, not a sub-path.
 */
const API_PREFIX = /\/api\/(?:public|admin)\/v1\/*$|\/api\/v1\/*$/

/** The deployment's base URL as given, without a trailing slash or an API path prefix. */
export function normaliseBaseUrl(url: string): string {
  return url.replace(/\/+$/, '').replace(API_PREFIX, '').replace(/\/+$/, '')
}

/** Why a request got no HTTP answer, in one line a person can act on (never an OpenSSL dump). */
export function networkReason(err: unknown, baseUrl: string): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  const code = e?.cause?.code ?? e?.code
  const message = e?.cause?.message ?? e?.message ?? String(err)
  if (
    baseUrl.startsWith('https:') &&
    (code === 'EPROTO' ||
      code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
      /wrong version number|packet length too long|SSL routines/i.test(message))
  )
    return `the server does not speak TLS there; is it ${baseUrl.replace(/^https:/, 'http:')}?`
  if (
    baseUrl.startsWith('http:') &&
    (code === 'HPE_INVALID_CONSTANT' || code === 'UND_ERR_SOCKET') &&
    /HTTP\/1|Expected HTTP|other side closed/i.test(message)
  )
    return `the server did not answer in plain HTTP; is it ${baseUrl.replace(/^http:/, 'https:')}?`
  if (code && /^(?:CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS_CERT)/.test(code))
    return `its TLS certificate is not trusted (${code}); add the CA with NODE_EXTRA_CA_CERTS=/path/ca.pem`
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve'
  if (code === 'ECONNRESET') return 'the connection was reset'
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'the host is unreachable'
  const first = String(message).split('\n')[0].trim()
  return first.length > 160 ? `${first.slice(0, 157)}...` : first || 'no answer'
}

export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    /** HTTP status; 0 when no HTTP response arrived. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    /** Seconds from Retry-After (429, and 503 server_busy / service_unavailable). */
    readonly retryAfter?: number,
  ) {
    super(message)
  }

  /** The error as the API's envelope, for `--json` output and MCP tool errors. */
  toEnvelope() {
    return {
      ok: false as const,
      error: {
        code: this.code,
        message: this.message,
        ...(this.requestId ? { request_id: this.requestId } : {}),
      },
    }
  }
}

export interface ClientOptions {
  baseUrl: string
  apiKey?: string
  adminToken?: string
  /** How long one request may take in all, ms (default DEFAULT_TIMEOUT_SECONDS). */
  timeoutMs?: number
  /**
   * On 429, or 503 `server_busy` (every check slot taken; nothing was run or charged), or 503
   * `service_unavailable` on a GET (a dependency of the server is down; a write is not repeated
   * blindly, the caller decides), wait out Retry-After and try again while the wait is at most this many seconds (default 0: do not
   * wait, throw the ApiError).
   */
  maxRetryWaitSeconds?: number
  /** Called before each such wait, for progress output; `code` is rate_limited or server_busy. */
  onRateLimitWait?: (seconds: number, code: string) => void
}

/** Whether waiting out Retry-After and sending the request again is safe and worth it. */
function retryable(err: ApiError, method: string): boolean {
  if (err.status === 429) return true
  if (err.status !== 503) return false
  return err.code === 'server_busy' || (err.code === 'service_unavailable' && method === 'GET')
}

type Auth = 'none' | 'key' | 'admin'
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

function query(params: { limit?: number; cursor?: string; tag?: string[] }): string {
  const q = new URLSearchParams()
  if (params.limit !== undefined) q.set('limit', String(params.limit))
  if (params.cursor !== undefined) q.set('cursor', params.cursor)
  for (const t of params.tag ?? []) q.append('tag', t)
  const qs = q.toString()
  return qs ? `?${qs}` : ''
}

export class SitehealthClient {
  readonly baseUrl: string
  constructor(private readonly opts: ClientOptions) {
    this.baseUrl = normaliseBaseUrl(opts.baseUrl)
  }

  health(): Promise<Health> {
    return this.call('GET', PATHS.health, 'none')
  }
  meta(): Promise<Meta> {
    return this.call('GET', PATHS.meta, 'none')
  }
  /** Runs and saves a check (1 credit); `assertions` are judged on it and come back in `data.assertions`. */
  runCheck(url: string, opts: { assertions?: Assertion[] } = {}): Promise<RunResult> {
    return this.call('POST', PATHS.run, 'key', {
      url,
      ...(opts.assertions?.length ? { assertions: opts.assertions } : {}),
    })
  }
  /**
   * Up to MAX_BATCH_CHECKS checks in one request (one against the run limit): each result in order,
   * a run result or its error envelope. The deadline grows with the batch: the server runs them a
   * few at a time, each within its own time limit.
   */
  runBatch(checks: RunRequest[]): Promise<RunBatchResult> {
    const each = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000
    return this.call('POST', PATHS.runBatch, 'key', { checks }, each * Math.max(1, checks.length))
  }
  credits(): Promise<CreditBalance> {
    return this.call('GET', PATHS.credits, 'key')
  }
  recent(params: { limit?: number; cursor?: string } = {}): Promise<RecentChecks> {
    const q = new URLSearchParams()
    if (params.limit !== undefined) q.set('limit', String(params.limit))
    if (params.cursor !== undefined) q.set('cursor', params.cursor)
    const qs = q.toString()
    return this.call('GET', PATHS.recent + (qs ? `?${qs}` : ''), 'key')
  }
  getCheck(id: string): Promise<SavedCheck> {
    return this.call('GET', pathFor(PATHS.check, { id }), 'key')
  }

  // ---- monitors (docs/decisions.md#monitors-and-alerts) ----
  createMonitor(body: MonitorCreate): Promise<Monitor> {
    return this.call('POST', MONITOR_PATHS.monitors, 'key', body)
  }
  /** `tag`: only monitors matching each (`env:prod`, or a bare `env` for any value). */
  listMonitors(params: { limit?: number; cursor?: string; tag?: string[] } = {}): Promise<MonitorList> {
    return this.call('GET', MONITOR_PATHS.monitors + query(params), 'key')
  }
  getMonitor(id: string): Promise<Monitor> {
    return this.call('GET', pathFor(MONITOR_PATHS.monitor, { id }), 'key')
  }
  updateMonitor(id: string, patch: MonitorPatch): Promise<Monitor> {
    return this.call('PATCH', pathFor(MONITOR_PATHS.monitor, { id }), 'key', patch)
  }
  deleteMonitor(id: string): Promise<void> {
    return this.call('DELETE', pathFor(MONITOR_PATHS.monitor, { id }), 'key')
  }
  runMonitor(id: string): Promise<MonitorRunAnswer> {
    return this.call('POST', pathFor(MONITOR_PATHS.run, { id }), 'key')
  }
  monitorRuns(id: string, params: { limit?: number; cursor?: string } = {}): Promise<MonitorRuns> {
    return this.call('GET', pathFor(MONITOR_PATHS.runs, { id }) + query(params), 'key')
  }
  monitorEvents(id: string, params: { limit?: number; cursor?: string } = {}): Promise<MonitorEvents> {
    return this.call('GET', pathFor(MONITOR_PATHS.events, { id }) + query(params), 'key')
  }
  /** Uptime over a window (docs/decisions.md#monitoring-depth): default the last 30 days, daily buckets. */
  monitorUptime(id: string, params: UptimeQuery = {}): Promise<UptimeReport> {
    const q = new URLSearchParams()
    for (const k of ['from', 'to', 'granularity'] as const) if (params[k] !== undefined) q.set(k, params[k])
    const qs = q.toString()
    return this.call('GET', pathFor(MONITOR_PATHS.uptime, { id }) + (qs ? `?${qs}` : ''), 'key')
  }

  // ---- status pages (docs/decisions.md#the-public-face) ----
  createStatusPage(body: StatusPageCreate): Promise<StatusPage> {
    return this.call('POST', STATUS_PAGE_PATHS.statusPages, 'key', body)
  }
  listStatusPages(): Promise<StatusPageList> {
    return this.call('GET', STATUS_PAGE_PATHS.statusPages, 'key')
  }
  getStatusPage(id: string): Promise<StatusPage> {
    return this.call('GET', pathFor(STATUS_PAGE_PATHS.statusPage, { id }), 'key')
  }
  updateStatusPage(id: string, patch: StatusPagePatch): Promise<StatusPage> {
    return this.call('PATCH', pathFor(STATUS_PAGE_PATHS.statusPage, { id }), 'key', patch)
  }
  deleteStatusPage(id: string): Promise<void> {
    return this.call('DELETE', pathFor(STATUS_PAGE_PATHS.statusPage, { id }), 'key')
  }
  // incidents posted on a page (docs/status-pages.md)
  createStatusIncident(id: string, body: StatusIncidentCreate): Promise<StatusIncident> {
    return this.call('POST', pathFor(STATUS_PAGE_PATHS.incidents, { id }), 'key', body)
  }
  listStatusIncidents(id: string): Promise<StatusIncidentList> {
    return this.call('GET', pathFor(STATUS_PAGE_PATHS.incidents, { id }), 'key')
  }
  getStatusIncident(id: string, incident: string): Promise<StatusIncident> {
    return this.call('GET', pathFor(STATUS_PAGE_PATHS.incident, { id, incident }), 'key')
  }
  updateStatusIncident(id: string, incident: string, patch: StatusIncidentPatch): Promise<StatusIncident> {
    return this.call('PATCH', pathFor(STATUS_PAGE_PATHS.incident, { id, incident }), 'key', patch)
  }
  addStatusIncidentUpdate(
    id: string,
    incident: string,
    body: StatusIncidentUpdateCreate,
  ): Promise<StatusIncident> {
    return this.call('POST', pathFor(STATUS_PAGE_PATHS.incidentUpdates, { id, incident }), 'key', body)
  }
  deleteStatusIncident(id: string, incident: string): Promise<void> {
    return this.call('DELETE', pathFor(STATUS_PAGE_PATHS.incident, { id, incident }), 'key')
  }
  // a page's subscribers (docs/status-pages.md)
  listStatusSubscribers(id: string): Promise<SubscriberList> {
    return this.call('GET', pathFor(STATUS_PAGE_PATHS.subscribers, { id }), 'key')
  }
  deleteStatusSubscriber(id: string, subscriber: string): Promise<void> {
    return this.call('DELETE', pathFor(STATUS_PAGE_PATHS.subscriber, { id, subscriber }), 'key')
  }

  // ---- maintenance windows (docs/decisions.md#monitoring-depth) ----
  createMaintenance(body: MaintenanceCreate): Promise<MaintenanceWindow> {
    return this.call('POST', MAINTENANCE_PATHS.windows, 'key', body)
  }
  listMaintenance(): Promise<MaintenanceList> {
    return this.call('GET', MAINTENANCE_PATHS.windows, 'key')
  }
  getMaintenance(id: string): Promise<MaintenanceWindow> {
    return this.call('GET', pathFor(MAINTENANCE_PATHS.window, { id }), 'key')
  }
  updateMaintenance(id: string, patch: MaintenancePatch): Promise<MaintenanceWindow> {
    return this.call('PATCH', pathFor(MAINTENANCE_PATHS.window, { id }), 'key', patch)
  }
  deleteMaintenance(id: string): Promise<void> {
    return this.call('DELETE', pathFor(MAINTENANCE_PATHS.window, { id }), 'key')
  }

  // ---- admin API ----
  createKey(body: { name: string; user?: string; credits?: number }): Promise<KeyCreated> {
    return this.call('POST', PATHS.adminKeys, 'admin', body)
  }
  listKeys(): Promise<KeyList> {
    return this.call('GET', PATHS.adminKeys, 'admin')
  }
  revokeKey(id: string): Promise<KeyRevoked> {
    return this.call('POST', pathFor(PATHS.adminRevoke, { id }), 'admin')
  }
  grantCredits(user: string, amount: number): Promise<CreditGrantResult> {
    return this.call('POST', pathFor(PATHS.adminCredits, { user }), 'admin', { amount })
  }

  // ---- accounts (docs/decisions.md#accounts-and-the-dashboard): admin users and invites, the device grant of `login`, `logout` ----
  createUser(body: { email: string; admin?: boolean; credits?: number }): Promise<UserCreated> {
    return this.call('POST', ACCOUNT_PATHS.adminUsers, 'admin', body)
  }
  listUsers(): Promise<UserList> {
    return this.call('GET', ACCOUNT_PATHS.adminUsers, 'admin')
  }
  disableUser(user: string): Promise<AccountInfo> {
    return this.call('POST', pathFor(ACCOUNT_PATHS.adminUserDisable, { user }), 'admin')
  }
  createInvite(body: { email?: string; admin?: boolean; credits?: number }): Promise<InviteCreated> {
    return this.call('POST', ACCOUNT_PATHS.adminInvites, 'admin', body)
  }
  deviceCode(name: string): Promise<DeviceCode> {
    return this.call('POST', ACCOUNT_PATHS.deviceCode, 'none', { name })
  }
  /** Throws ApiError with code authorization_pending / slow_down / access_denied / expired_token until approved. */
  deviceToken(deviceCode: string): Promise<KeyCreated> {
    return this.call('POST', ACCOUNT_PATHS.deviceToken, 'none', { device_code: deviceCode })
  }
  /** Revokes the key this client uses. */
  revokeOwnKey(): Promise<KeyRevoked> {
    return this.call('POST', ACCOUNT_PATHS.revokeSelf, 'key')
  }

  private authHeader(auth: Auth): string | undefined {
    if (auth === 'none') return undefined
    if (auth === 'admin') {
      if (!this.opts.adminToken)
        throw new ApiError(
          0,
          'no_api_key',
          'No admin token: pass --admin-token or set SITEHEALTH_ADMIN_TOKEN.',
        )
      return `Bearer ${this.opts.adminToken}`
    }
    const key = this.opts.apiKey
    if (!key)
      throw new ApiError(
        0,
        'no_api_key',
        'No API key: sign in with `sitehealth login` (it saves a key approved in the dashboard), or pass --api-key, set SITEHEALTH_API_KEY or save one with `sitehealth config set api-key KEY`.',
      )
    // Refuse a mistyped key before it leaves the machine.
    if (!isWellFormedApiKey(key))
      throw new ApiError(
        0,
        'invalid_api_key',
        'The API key is malformed (its checksum does not match): check for a typo.',
      )
    return `Bearer ${key}`
  }

  private async call<T>(
    method: Method,
    path: string,
    auth: Auth,
    body?: unknown,
    timeoutMs?: number,
  ): Promise<T> {
    const authorization = this.authHeader(auth)
    const maxWait = this.opts.maxRetryWaitSeconds ?? 0
    for (;;) {
      try {
        return await this.once<T>(method, path, authorization, body, timeoutMs)
      } catch (err) {
        if (
          err instanceof ApiError &&
          retryable(err, method) &&
          err.retryAfter !== undefined &&
          err.retryAfter <= maxWait
        ) {
          this.opts.onRateLimitWait?.(err.retryAfter, err.code)
          await new Promise((r) => setTimeout(r, Math.max(err.retryAfter!, 1) * 1000))
          continue
        }
        throw err
      }
    }
  }

  private async once<T>(
    method: string,
    path: string,
    authorization?: string,
    body?: unknown,
    timeoutMs?: number,
  ): Promise<T> {
    const timeout = timeoutMs ?? this.opts.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000
    // one deadline for the whole exchange: connect, headers and body (a server that accepts and
    // never answers must not hold the command for longer than asked)
    const signal = AbortSignal.timeout(timeout)
    const timedOut = () =>
      new ApiError(0, 'timeout', `No answer from ${this.baseUrl} within ${formatSeconds(timeout)}.`)
    let res
    try {
      res = await request(this.baseUrl + path, {
        signal,
        method: method as Method,
        headers: {
          accept: 'application/json',
          ...(authorization ? { authorization } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      })
    } catch (err) {
      if (signal.aborted) throw timedOut()
      throw new ApiError(
        0,
        'network_error',
        `Cannot reach ${this.baseUrl}: ${networkReason(err, this.baseUrl)}.`,
      )
    }
    const requestId = header(res.headers['x-request-id'])
    let text: string
    try {
      text = await res.body.text()
    } catch (err) {
      if (signal.aborted) throw timedOut()
      throw new ApiError(
        0,
        'network_error',
        `The connection to ${this.baseUrl} broke: ${networkReason(err, this.baseUrl)}.`,
        requestId,
      )
    }
    if (res.statusCode === 204) return undefined as T
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      throw new ApiError(
        res.statusCode,
        res.statusCode >= 500 ? 'internal_error' : 'invalid_response',
        `${this.baseUrl} answered HTTP ${res.statusCode} with a body that is not JSON: is this a sitehealth API?`,
        requestId,
      )
    }
    if (res.statusCode >= 200 && res.statusCode < 300) return json as T
    const code = typeof json?.error?.code === 'string' ? json.error.code : `http_${res.statusCode}`
    const message = typeof json?.error?.message === 'string' ? json.error.message : `HTTP ${res.statusCode}`
    const retry = Number(header(res.headers['retry-after']))
    throw new ApiError(
      res.statusCode,
      code,
      message,
      requestId ?? json?.error?.request_id,
      Number.isFinite(retry) ? retry : undefined,
    )
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v
}
