/**
 * Monitoring inside `serve`: the secret box, the deliverer, the service and the scheduler, built
 * and stopped together.
 */
import type { LabRunner } from '../checks/lab-outcome.js'
import type { CheckCapacity } from '../capacity/index.js'
import type { MonitorStore } from '../store/monitors.js'
import type { Store } from '../store/types.js'
import { Deliverer, type DeliveryOptions } from './channels/deliver.js'
import { Scheduler, type SchedulerOptions } from './scheduler.js'
import { secretBox } from '../shared/secret-box.js'
import { MonitorService } from './service.js'
import type { Metrics } from '../metrics/index.js'

export interface MonitoringOptions {
  store: Store
  monitors: MonitorStore
  secretKey: string
  allowPrivateTargets: boolean
  checkTimeoutMs: number
  /** The lab browser (serve --lab-browser), for monitors that ask for it. */
  lab?: LabRunner
  minInterval?: number
  /** The server's caps on checks in flight: scheduled runs take their slots here. */
  capacity: CheckCapacity
  delivery?: Partial<Omit<DeliveryOptions, 'openSecret' | 'allowPrivateTargets'>>
  scheduler?: Partial<Omit<SchedulerOptions, 'capacity'>>
  /**
   * With a shared database: how often to look for alerts whose instance died mid-delivery (their
   * lease ran out) and send them. Unset: only at start (one process holds every lease).
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
  const service = new MonitorService({
    store: o.store,
    monitors: o.monitors,
    deliverer,
    secrets: box,
    allowPrivateTargets: o.allowPrivateTargets,
    checkTimeoutMs: o.checkTimeoutMs,
    lab: o.lab,
    capacity: o.capacity,
    minInterval: o.minInterval,
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
  service.onScheduleChange = () => scheduler.kick()
  await service.sweepDeliveries()
  scheduler.start()
  const sweeper =
    o.deliverySweepMs === undefined
      ? undefined
      : setInterval(
          () =>
            void service
              .sweepDeliveries()
              .catch((err) => o.log?.(`delivery sweep: ${(err as Error).message}`)),
          o.deliverySweepMs,
        ).unref()
  let closing: Promise<void> | undefined
  return {
    service,
    scheduler,
    deliverer,
    close() {
      closing ??= (async () => {
        clearInterval(sweeper)
        await scheduler.stop()
        await deliverer.close()
        await service.drain()
      })()
      return closing
    },
  }
}
