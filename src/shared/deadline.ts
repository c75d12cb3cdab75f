/**
 * A request's own time limit beside its parents' signals, with a timer that is cleared once the
 * request is answered. `AbortSignal.timeout` cannot be cleared: it fires (a DOMException made and
 * dispatched) seconds after every request that was answered in time, once a check, on a hot path.
 */
export interface Deadline {
  /** Aborts when any parent does, or when the time is up. */
  readonly signal: AbortSignal
  /** True once the time ran out (not when a parent aborted). */
  timedOut(): boolean
  /** Stops the timer; call it when the request is over. */
  clear(): void
}

export function deadline(parents: AbortSignal[], ms: number, message: string): Deadline {
  const own = new AbortController()
  const timer = setTimeout(() => own.abort(new DOMException(message, 'TimeoutError')), ms).unref()
  return {
    signal: AbortSignal.any([...parents, own.signal]),
    timedOut: () => own.signal.aborted,
    clear: () => clearTimeout(timer),
  }
}
