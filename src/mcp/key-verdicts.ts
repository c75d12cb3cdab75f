/**
 * Whether an API key is good, asked of the sitehealth API (a credits call, which costs nothing) and
 * reused for a short while: concurrent and repeated asks for one key share one answer. A refusal
 * (401) is cached like a success; a rate limit or an unreachable API is not.
 */
import { ApiError, SitehealthClient } from '../client/client.js'

export type Verdict =
  | { ok: true }
  | { ok: false; status: number; code: string; message: string; retryAfter?: number; cache: boolean }

export class KeyVerdicts {
  private readonly verdicts = new Map<string, { until: number; verdict: Promise<Verdict> }>()

  constructor(
    private readonly apiUrl: string,
    /** How long a key's verdict (valid or not) is reused, ms. */
    private readonly cacheMs: number,
  ) {}

  /** `hash` is the key's SHA-256 (hex): the cache never holds the key itself. */
  verify(key: string, hash: string): Promise<Verdict> {
    const now = Date.now()
    const cached = this.verdicts.get(hash)
    if (cached && cached.until > now) return cached.verdict
    const verdict = new SitehealthClient({ baseUrl: this.apiUrl, apiKey: key, timeoutMs: 15_000 })
      .credits()
      .then(
        (): Verdict => ({ ok: true }),
        (err): Verdict => this.refusal(err),
      )
    this.verdicts.set(hash, { until: now + this.cacheMs, verdict })
    void verdict.then((v) => {
      if (!v.ok && !v.cache) this.verdicts.delete(hash)
    })
    // Bound the cache: drop expired entries now and then.
    if (this.verdicts.size > 1000)
      for (const [h, v] of this.verdicts) if (v.until <= now) this.verdicts.delete(h)
    return verdict
  }

  private refusal(err: unknown): Verdict {
    if (err instanceof ApiError && err.status === 401)
      return { ok: false, status: 401, code: err.code, message: err.message, cache: true }
    if (err instanceof ApiError && err.status === 429)
      return {
        ok: false,
        status: 429,
        code: err.code,
        message: err.message,
        retryAfter: err.retryAfter,
        cache: false,
      }
    const reason = err instanceof Error ? err.message : String(err)
    return {
      ok: false,
      status: 502,
      code: 'api_unavailable',
      message: `Cannot verify the API key with the sitehealth API at ${this.apiUrl}: ${reason}`,
      cache: false,
    }
  }
}
