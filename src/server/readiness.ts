/**
 * Readiness (docs/operations.md#readiness): `GET /api/public/v1/ready` tells whether this instance
 * can serve requests now, dependency by dependency, where `/health` (the spec's shape) only says
 * the process answers HTTP. It answers within the probe timeout whatever the dependencies do:
 * each probe is raced against a timer, a probe still waiting from an earlier call is joined, not
 * started again (a stalled database never collects more than one probe per instance), and one
 * report serves every caller for a second, so polling it cannot load the database. The report
 * names dependencies and fixed phrases only: no address, user name or driver message; those go
 * to the log, once per change of state.
 */
import type { H3Event } from 'h3'
import { PATHS, type DependencyProbe, type Readiness } from '../contract/index.js'
import type { Store } from '../store/types.js'
import { unavailableDependency } from '../store/unavailable.js'
import { UNAVAILABLE_RETRY_AFTER_SEC } from '../http/errors.js'

export type DependencyName = DependencyProbe['name']

/** One dependency to probe. */
export interface ReadinessProbe {
  name: DependencyName
  /** Whether requests fail while it is down (Redis is not: the in-process limiter takes over). */
  required: boolean
  probe: () => Promise<void>
}

export interface ReadinessOptions {
  /** Longest wait for one probe, ms (default 1000). */
  timeoutMs?: number
  /** How long one report is reused, ms (default 1000). */
  cacheMs?: number
  /** Consecutive failed scheduler ticks; omitted when the server runs no scheduler. */
  failedTicks?: () => number
  log?: (line: string) => void
}

export const READY_PROBE_TIMEOUT_MS = 1000
export const READY_CACHE_MS = 1000

/** The probe of a store: PostgreSQL is the `database`, the embedded store's data dir the `disk`. */
export function storeProbe(store: Store): ReadinessProbe {
  return {
    name: store.backend === 'postgres' ? 'database' : 'disk',
    required: true,
    probe: () => store.probe(),
  }
}

const TIMED_OUT = Symbol('timed out')

/** One dependency: at most one probe in flight, each wait bounded. */
class Prober {
  private inFlight: Promise<void> | undefined
  private wasDown = false

  constructor(
    readonly p: ReadinessProbe,
    private readonly timeoutMs: number,
    private readonly log?: (line: string) => void,
  ) {}

  async run(): Promise<DependencyProbe> {
    const started = performance.now()
    // a probe still waiting (a stalled dependency) is joined rather than started again
    this.inFlight ??= this.p.probe().finally(() => {
      this.inFlight = undefined
    })
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.timeoutMs)
    })
    let reason: string | undefined
    let detail: string | undefined
    try {
      const outcome = await Promise.race([this.inFlight, timeout])
      if (outcome === TIMED_OUT) reason = detail = `no answer within ${this.timeoutMs} ms`
    } catch (err) {
      reason = this.phrase(err)
      detail = String((err as Error)?.message ?? err).split('\n')[0]
    } finally {
      clearTimeout(timer)
    }
    const latency = Math.min(Math.round(performance.now() - started), this.timeoutMs)
    this.note(reason === undefined ? undefined : detail)
    const { name, required } = this.p
    return reason === undefined
      ? { name, status: 'up', required, latency_ms: latency }
      : { name, status: 'down', required, latency_ms: latency, reason }
  }

  /** A fixed phrase for the report: the driver's message may name hosts or users. */
  private phrase(err: unknown): string {
    if (unavailableDependency(err) === 'disk') return 'cannot write (full, read-only or failing)'
    if (unavailableDependency(err)) return 'refused, dropped or not answering'
    return 'the probe failed (see the log)'
  }

  /** One log line when the dependency goes down and one when it is back. */
  private note(downDetail: string | undefined): void {
    const down = downDetail !== undefined
    if (down === this.wasDown) return
    this.wasDown = down
    this.log?.(
      down ? `readiness: ${this.p.name} down (${downDetail})` : `readiness: ${this.p.name} answers again`,
    )
  }
}

export class ReadinessCheck {
  private readonly probers: Prober[]
  private readonly cacheMs: number
  private last: { at: number; report: Readiness } | undefined
  private current: Promise<Readiness> | undefined

  constructor(
    probes: ReadinessProbe[],
    private readonly o: ReadinessOptions = {},
  ) {
    const timeoutMs = o.timeoutMs ?? READY_PROBE_TIMEOUT_MS
    this.probers = probes.map((p) => new Prober(p, timeoutMs, o.log))
    this.cacheMs = o.cacheMs ?? READY_CACHE_MS
  }

  /** The report, probed now or reused from the last second; never rejects. */
  report(): Promise<Readiness> {
    if (this.last && performance.now() - this.last.at < this.cacheMs) return Promise.resolve(this.last.report)
    this.current ??= this.probe().finally(() => {
      this.current = undefined
    })
    return this.current
  }

  private async probe(): Promise<Readiness> {
    const dependencies = await Promise.all(this.probers.map((p) => p.run()))
    const down = dependencies.filter((d) => d.status === 'down')
    const status = down.some((d) => d.required) ? 'unavailable' : down.length ? 'degraded' : 'ready'
    const failed = this.o.failedTicks?.()
    const report: Readiness = {
      ok: status !== 'unavailable',
      status,
      checked_at: new Date().toISOString(),
      dependencies,
      scheduler:
        failed === undefined ? null : { status: failed > 0 ? 'retrying' : 'running', failed_ticks: failed },
    }
    this.last = { at: performance.now(), report }
    return report
  }
}

/** `GET /api/public/v1/ready`: 200 when ready or degraded, 503 (with Retry-After) when unavailable. */
export function readinessRoutes(check: ReadinessCheck) {
  return {
    [PATHS.ready]: {
      GET: async (event: H3Event): Promise<Response> => {
        const report = await check.report()
        if (report.ok)
          return new Response(JSON.stringify(report), {
            headers: { 'content-type': 'application/json; charset=utf-8' },
          })
        const down = report.dependencies.filter((d) => d.status === 'down' && d.required).map((d) => d.name)
        const body: Readiness = {
          ...report,
          error: {
            code: 'service_unavailable',
            message: `Not ready: ${down.join(' and ')} down. Requests that need it answer 503; retry in a few seconds.`,
            request_id: String(event.context.requestId ?? ''),
          },
        }
        return new Response(JSON.stringify(body), {
          status: 503,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'retry-after': String(UNAVAILABLE_RETRY_AFTER_SEC),
          },
        })
      },
    },
  }
}
