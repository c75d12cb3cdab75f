/**
 * Sliding-window rate limits per key (DESIGN.md §3): a log of request times per key and policy,
 * trimmed as it ages, so the count is exact and Retry-After is the moment the oldest request in
 * the window leaves it. Memory per key is bounded by the limit.
 */
export interface Policy {
  name: string
  limit: number
  windowMs: number
}

export interface Decision {
  allowed: boolean
  remaining: number
  /** Seconds until a slot frees (whole, at least 1 when refused). */
  resetSec: number
  headers: Record<string, string>
}

class Window {
  private times: number[] = []
  private head = 0
  trim(now: number, windowMs: number) {
    while (this.head < this.times.length && this.times[this.head] <= now - windowMs) this.head++
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head)
      this.head = 0
    }
  }
  get count() {
    return this.times.length - this.head
  }
  get oldest() {
    return this.times[this.head]
  }
  push(t: number) {
    this.times.push(t)
  }
}

export class RateLimiter {
  private windows = new Map<string, Window>()
  constructor(private readonly clock: () => number = Date.now) {}

  hit(key: string, policy: Policy): Decision {
    const now = this.clock()
    const id = `${policy.name}\0${key}`
    let w = this.windows.get(id)
    if (!w) this.windows.set(id, (w = new Window()))
    w.trim(now, policy.windowMs)
    const allowed = w.count < policy.limit
    if (allowed) w.push(now)
    const remaining = Math.max(0, policy.limit - w.count)
    const resetMs = w.count > 0 ? w.oldest + policy.windowMs - now : 0
    const resetSec = allowed ? Math.ceil(resetMs / 1000) : Math.max(1, Math.ceil(resetMs / 1000))
    const headers: Record<string, string> = {
      'ratelimit-policy': `"${policy.name}";q=${policy.limit};w=${Math.round(policy.windowMs / 1000)}`,
      ratelimit: `"${policy.name}";r=${remaining};t=${resetSec}`,
    }
    if (!allowed) headers['retry-after'] = String(resetSec)
    return { allowed, remaining, resetSec, headers }
  }

  /** Drop idle windows (called periodically). */
  sweep(maxWindowMs: number) {
    const now = this.clock()
    for (const [id, w] of this.windows) {
      w.trim(now, maxWindowMs)
      if (w.count === 0) this.windows.delete(id)
    }
  }
}
