/**
 * The typed API client: one class behind every client command and the MCP server. It talks to any
 * deployment of the public API (and the admin API of DESIGN.md §4), decodes JSON, and turns every
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
  type RunResult,
  type SavedCheck,
} from '../contract/index.js'

/** Codes the client adds to the API's own (spec §7 and DESIGN.md §3). */
export type ClientErrorCode = 'network_error' | 'no_api_key' | 'invalid_response'

export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    /** HTTP status; 0 when no HTTP response arrived. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    /** Seconds from Retry-After, on 429. */
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
  /** How long to wait for response headers, ms (a check can take 15 s on the server). */
  timeoutMs?: number
  /**
   * On 429, wait out Retry-After and try again while the wait is at most this many seconds
   * (default 0: do not wait, throw the rate_limited ApiError).
   */
  maxRetryWaitSeconds?: number
  /** Called before each wait on 429, for progress output. */
  onRateLimitWait?: (seconds: number) => void
}

type Auth = 'none' | 'key' | 'admin'

export class SitehealthClient {
  readonly baseUrl: string
  constructor(private readonly opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '')
  }

  health(): Promise<Health> {
    return this.call('GET', PATHS.health, 'none')
  }
  meta(): Promise<Meta> {
    return this.call('GET', PATHS.meta, 'none')
  }
  runCheck(url: string): Promise<RunResult> {
    return this.call('POST', PATHS.run, 'key', { url })
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
        'No API key: pass --api-key, set SITEHEALTH_API_KEY, or save one with `sitehealth keys create --save`.',
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

  private async call<T>(method: 'GET' | 'POST', path: string, auth: Auth, body?: unknown): Promise<T> {
    const authorization = this.authHeader(auth)
    const maxWait = this.opts.maxRetryWaitSeconds ?? 0
    for (;;) {
      try {
        return await this.once<T>(method, path, authorization, body)
      } catch (err) {
        if (
          err instanceof ApiError &&
          err.status === 429 &&
          err.retryAfter !== undefined &&
          err.retryAfter <= maxWait
        ) {
          this.opts.onRateLimitWait?.(err.retryAfter)
          await new Promise((r) => setTimeout(r, Math.max(err.retryAfter!, 1) * 1000))
          continue
        }
        throw err
      }
    }
  }

  private async once<T>(method: string, path: string, authorization?: string, body?: unknown): Promise<T> {
    const timeout = this.opts.timeoutMs ?? 60_000
    let res
    try {
      res = await request(this.baseUrl + path, {
        method: method as 'GET' | 'POST',
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
      const reason = err instanceof Error ? err.message : String(err)
      throw new ApiError(0, 'network_error', `Cannot reach ${this.baseUrl}: ${reason}`)
    }
    const requestId = header(res.headers['x-request-id'])
    let text: string
    try {
      text = await res.body.text()
    } catch (err) {
      throw new ApiError(
        0,
        'network_error',
        `The connection to ${this.baseUrl} broke: ${(err as Error).message}`,
        requestId,
      )
    }
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

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v
}
