/**
 * A store answer that may be ready at once. The embedded store keeps keys and balances in memory,
 * and the PostgreSQL store caches keys: such answers come back as plain values, so the request hot
 * path (`GET /credits`, src/server/fast-path.ts) runs without waiting for a microtask turn, which
 * costs it more than the lookup itself (bench/RESULTS.md, the request hot path). `await` takes
 * either form, so ordinary callers need not care.
 */
export type Awaitable<T> = T | Promise<T>

export function isPromise<T>(v: Awaitable<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | null)?.then === 'function'
}

/** `fn(v)` now when `v` is a value, when it resolves when it is a promise. */
export function andThen<T, R>(v: Awaitable<T>, fn: (v: T) => Awaitable<R>): Awaitable<R> {
  return isPromise(v) ? v.then(fn) : fn(v)
}
