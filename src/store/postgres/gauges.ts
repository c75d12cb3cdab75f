/**
 * Gauge rows on PostgreSQL (src/store/gauges.ts): one query over the monitors table that pulls
 * only the fields /metrics needs out of each record, so a scrape of 10,000 monitors moves a few
 * hundred kilobytes, not every record.
 */
import { sql, type Kysely } from 'kysely'
import type { MonitorGauge, MonitorGaugeStore } from '../gauges.js'
import type { Database } from './schema.js'

interface Row {
  id: string
  name: string
  state: MonitorGauge['state']
  paused: boolean
  health_score: number | null
  response_time_ms: number | null
  certificate_expires_at: string | null
}

export class PgMonitorGauges implements MonitorGaugeStore {
  constructor(private readonly db: Kysely<Database>) {}

  async monitorGauges(): Promise<MonitorGauge[]> {
    const r = await sql<Row>`
      SELECT id::text AS id, record->>'name' AS name, record->>'state' AS state, paused,
        (record->'last_check'->>'health_score')::int AS health_score,
        COALESCE((record->'last_check'->>'response_time_ms')::int,
          (record->>'last_response_ms')::int) AS response_time_ms,
        record->'last_check'->>'certificate_expires_at' AS certificate_expires_at
      FROM monitors`.execute(this.db)
    return r.rows.map((x) => ({
      id: x.id,
      name: x.name,
      state: x.paused ? 'paused' : x.state,
      health_score: x.health_score,
      response_time_ms: x.response_time_ms,
      certificate_expires_at: x.certificate_expires_at,
    }))
  }
}
