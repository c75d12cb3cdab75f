/**
 * Monitoring inside `serve`: the secret box, the deliverer, the service and the scheduler, built
 * and stopped together.
 */
import { pingAvailability, type PingAvailability } from '../checks/index.js'
import type { LabRunner } from '../checks/lab-outcome.js'
import type { CheckCapacity } from '../capacity/index.js'
import type { MonitorStore } from '../store/types.js'
import type { Store } from '../store/types.js'
import { Deliverer, type DeliveryOptions } from './channels/deliver.js'
import { Scheduler, type SchedulerOptions } from './scheduler.js'
import { secretBox } from '../shared/index.js'
import { MonitorService } from './service.js'
import type { QuotaOptions } from './quota.js'
import type { Metrics } from '../metrics/index.js'

/** How often alerts nobody is sending are looked for, ms, unless told otherwise. */
export const DEFAULT_DELIVERY_SWEEP_MS = 30_000
/** How often history past retention is pruned (paused monitors' too), ms. */
export const HISTORY_PRUNE_MS = 3_600_000

export interface MonitoringOptions {
  store: Store
  monitors: MonitorStore
  secretKey: string
  allowPrivateTargets: boolean
  /** Whether this server may ping; absent: asked now, once (checks `pingAvailability`). */
  ping?: PingAvailability
  checkTimeoutMs: number
  /** The lab browser (serve --lab-browser), for monitors that ask for it. */
  lab?: LabRunner
  minInterval?: number
  /** Monitors per account and creates per minute (quota.ts). */
  quota?: QuotaOptions
  /** The server's caps on checks in flight: scheduled runs take their slots here. */
  capacity: CheckCapacity
  delivery?: Partial<Omit<DeliveryOptions, 'openSecret' | 'allowPrivateTargets'>>
  scheduler?: Partial<Omit<SchedulerOptions, 'capacity'>>
  /**
   * How often to look for alerts nobody is sending (their instance died, or their outcome could
   * not be recorded) and send them, ms (default 30 s).
   */
  deliverySweepMs?: number
  log?: (line: string) => void
  /** Check durations, outcomes and scheduler lag for /metrics. */
  metrics?: Metrics
}

export interface Monitoring {
  service: MonitorService
  scheduler: Scheduler
  deliverer: Deliverer
  close(): Promise<void>
}

export async function startMonitoring(o: MonitoringOptions): Promise<Monitoring> {
  const box = secretBox(o.secretKey)
  const deliverer = new Deliverer({
    ...o.delivery,
    allowPrivateTargets: o.allowPrivateTargets,
    openSecret: (s) => box.open(s),
  })
  const ping = o.ping ?? (await pingAvailability())
  if (!ping.ok) o.log?.(`ping monitors: not available (${ping.reason}); creating one is refused`)
  const service = new MonitorService({
    store: o.store,
    monitors: o.monitors,
    deliverer,
    secrets: box,
    allowPrivateTargets: o.allowPrivateTargets,
    ping,
    checkTimeoutMs: o.checkTimeoutMs,
    lab: o.lab,
    capacity: o.capacity,
    minInterval: o.minInterval,
    quota: o.quota,
    log: o.log,
    metrics: o.metrics,
  })
  const metrics = o.metrics
  const scheduler = new Scheduler(service, {
    ...o.scheduler,
    capacity: o.capacity,
    log: o.log,
    ...(metrics ? { onLag: (ms: number) => metrics.observeLag(ms) } : {}),
  })
  service.onScheduleChange = () => scheduler.scheduleChanged()
  // a store that is down at start must not stop monitoring from starting: the sweep retries
  await service.sweepDeliveries().catch((err) => o.log?.(`delivery sweep: ${(err as Error).message}`))
  scheduler.start()
  // also with one process: alerts whose outcome could not be recorded (the store was down) are
  // given back and sent again from here once it answers
  const sweeper = setInterval(
    () => void service.sweepDeliveries().catch((err) => o.log?.(`delivery sweep: ${(err as Error).message}`)),
    o.deliverySweepMs ?? DEFAULT_DELIVERY_SWEEP_MS,
  ).unref()
  const pruneHistory = () =>
    void service.pruneHistory().catch((err) => o.log?.(`history prune: ${(err as Error).message}`))
  pruneHistory()
  const pruner = setInterval(pruneHistory, HISTORY_PRUNE_MS).unref()
  let closing: Promise<void> | undefined
  return {
    service,
    scheduler,
    deliverer,
    close() {
      closing ??= (async () => {
        clearInterval(sweeper)
        clearInterval(pruner)
        await scheduler.stop()
        await deliverer.close()
        await service.drain()
      })()
      return closing
    },
  }
}
