/**
 * The Prometheus series of `serve --metrics-token` (docs/decisions.md#the-public-face), with
 * prom-client, the maintained Node client, on a registry of the server's own (several servers in
 * one process, as in tests, never mix). Names and units follow the Prometheus conventions
 * (`_seconds`, `_total`); labels are bounded: route templates (never raw paths), methods, statuses,
 * outcomes, and per monitor its id and name (prom-client escapes label values). No URL, key or user
 * is ever a label.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { MonitorGauge, MonitorGaugeStore } from '../store/gauges.js'

export type CheckOutcome = 'saved' | 'check_failed' | 'invalid_url' | 'error'

export interface MetricsSources {
  /** Checks running now (the server's check capacity). */
  inFlight: () => number
  /** Per-monitor rows, from the store. */
  gauges?: MonitorGaugeStore
}

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const CHECK_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60, 120]
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300]

const UP: Partial<Record<MonitorGauge['state'], number>> = { up: 1, degraded: 1, down: 0 }

export class Metrics {
  readonly registry = new Registry()
  private readonly requests: Counter<'method' | 'route' | 'status'>
  private readonly requestSeconds: Histogram<'method' | 'route'>
  private readonly checkSeconds: Histogram<'outcome'>
  private readonly checks: Counter<'outcome'>
  private readonly lag: Histogram

  constructor(sources: MetricsSources) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry })
    this.requests = new Counter({
      name: 'sitehealth_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      registers,
    })
    this.requestSeconds = new Histogram({
      name: 'sitehealth_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: HTTP_BUCKETS,
      registers,
    })
    this.checkSeconds = new Histogram({
      name: 'sitehealth_check_duration_seconds',
      help: 'Duration of website checks (API and scheduled runs), by outcome.',
      labelNames: ['outcome'],
      buckets: CHECK_BUCKETS,
      registers,
    })
    this.checks = new Counter({
      name: 'sitehealth_checks_total',
      help: 'Website checks run, by outcome: saved (a result, charged), check_failed, invalid_url, error.',
      labelNames: ['outcome'],
      registers,
    })
    this.lag = new Histogram({
      name: 'sitehealth_scheduler_lag_seconds',
      help: 'How late scheduled monitor runs started after they fell due.',
      buckets: LAG_BUCKETS,
      registers,
    })
    new Gauge({
      name: 'sitehealth_checks_in_flight',
      help: 'Checks running now (API and scheduled).',
      registers,
      collect() {
        this.set(sources.inFlight())
      },
    })
    if (sources.gauges) this.refreshMonitors = monitorGauges(sources.gauges, registers)
  }

  /** Reads the per-monitor figures before a scrape (all four gauges from one read). */
  private readonly refreshMonitors: () => Promise<void> = async () => {}

  /** One answered request (route: the matched template, or `unmatched`). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) })
    this.requestSeconds.observe({ method, route }, seconds)
  }

  observeCheck(outcome: CheckOutcome, seconds: number): void {
    this.checks.inc({ outcome })
    this.checkSeconds.observe({ outcome }, seconds)
  }

  observeLag(ms: number): void {
    this.lag.observe(Math.max(0, ms) / 1000)
  }

  get contentType(): string {
    return this.registry.contentType
  }

  async text(): Promise<string> {
    await this.refreshMonitors()
    return this.registry.metrics()
  }
}

/** The four per-monitor gauges, and the function that fills them from one read of the store. */
function monitorGauges(store: MonitorGaugeStore, registers: Registry[]): () => Promise<void> {
  const labelNames = ['monitor_id', 'monitor_name'] as const
  const up = new Gauge({
    name: 'sitehealth_monitor_up',
    help: 'Whether the monitor is up (1) or down (0); paused and pending monitors have no sample.',
    labelNames,
    registers,
  })
  const score = new Gauge({
    name: 'sitehealth_monitor_health_score',
    help: 'Health score (0-100) of the monitor’s latest saved check.',
    labelNames,
    registers,
  })
  const response = new Gauge({
    name: 'sitehealth_monitor_response_time_seconds',
    help: 'Response time of the monitor’s latest saved check.',
    labelNames,
    registers,
  })
  const expiry = new Gauge({
    name: 'sitehealth_monitor_certificate_expiry_timestamp_seconds',
    help: 'When the TLS certificate seen by the latest saved check expires (Unix time).',
    labelNames,
    registers,
  })
  return async () => {
    const rows = await store.monitorGauges()
    // deleted monitors' series go: every gauge is rebuilt from this read
    for (const g of [up, score, response, expiry]) g.reset()
    for (const m of rows) {
      const labels = { monitor_id: m.id, monitor_name: m.name }
      const isUp = UP[m.state]
      if (isUp !== undefined) up.set(labels, isUp)
      if (m.health_score !== null) score.set(labels, m.health_score)
      if (m.response_time_ms !== null) response.set(labels, m.response_time_ms / 1000)
      const t = m.certificate_expires_at === null ? NaN : Date.parse(m.certificate_expires_at)
      if (Number.isFinite(t)) expiry.set(labels, Math.round(t / 1000))
    }
  }
}
