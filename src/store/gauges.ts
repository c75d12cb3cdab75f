/**
 * What /metrics reads per monitor (docs/decisions.md#the-public-face): one row per monitor with the
 * figures of its latest run, straight from the store, so with PostgreSQL every instance answers a
 * scrape the same. Backends: src/store/embedded/gauges.ts (memory), src/store/postgres/gauges.ts (one
 * query over the monitors table).
 */
import type { MonitorRecord } from './monitors.js'

export interface MonitorGauge {
  id: string
  name: string
  /** The stored state; `paused` while paused. */
  state: MonitorRecord['state'] | 'paused'
  health_score: number | null
  response_time_ms: number | null
  certificate_expires_at: string | null
}

export interface MonitorGaugeStore {
  /** Every monitor of every user. */
  monitorGauges(): Promise<MonitorGauge[]>
}

/** A monitor record as its gauge row. */
export function gaugeOf(m: MonitorRecord): MonitorGauge {
  return {
    id: m.id,
    name: m.name,
    state: m.paused ? 'paused' : m.state,
    health_score: m.last_check?.health_score ?? null,
    response_time_ms: m.last_check?.response_time_ms ?? m.last_response_ms ?? null,
    certificate_expires_at: m.last_check?.certificate_expires_at ?? null,
  }
}
