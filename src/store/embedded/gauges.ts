/** The embedded backend's gauge rows: read from the monitors held in memory (src/store/gauges.ts). */
import { gaugeOf, type MonitorGauge, type MonitorGaugeStore } from '../gauges.js'
import type { LowdbMonitorStore } from './monitors.js'

export class LowdbMonitorGauges implements MonitorGaugeStore {
  constructor(private readonly monitors: LowdbMonitorStore) {}

  async monitorGauges(): Promise<MonitorGauge[]> {
    return Array.from(this.monitors.records(), gaugeOf)
  }
}
