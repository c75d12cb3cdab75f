/**
 * Maintenance windows on PostgreSQL (docs/decisions.md#monitoring-depth): the maintenance_windows
 * table (migration 0010), the window's record as json beside its owner. Nothing is cached here, so
 * a window changed through one instance is what every other reads next.
 */
import { sql, type Kysely } from 'kysely'
import type { MaintenanceRecord, MaintenanceStore } from '../maintenance.js'
import type { Database } from './schema.js'

type Rows = ReturnType<typeof sql<{ record: MaintenanceRecord }>>

export class PgMaintenance implements MaintenanceStore {
  constructor(private readonly db: Kysely<Database>) {}

  private async rows(query: Rows): Promise<MaintenanceRecord[]> {
    const r = await query.execute(this.db)
    return r.rows.map((x) => x.record)
  }

  async createMaintenance(w: MaintenanceRecord): Promise<MaintenanceRecord> {
    await sql`
      INSERT INTO maintenance_windows (id, user_id, record)
      VALUES (${w.id}, ${w.user_id}, ${JSON.stringify(w)})`.execute(this.db)
    return w
  }

  async getMaintenance(userId: string, id: string): Promise<MaintenanceRecord | undefined> {
    const [w] = await this.rows(
      sql<{
        record: MaintenanceRecord
      }>`SELECT record FROM maintenance_windows WHERE id = ${id}::uuid AND user_id = ${userId}`,
    )
    return w
  }

  listMaintenance(userId: string): Promise<MaintenanceRecord[]> {
    return this.rows(
      sql<{
        record: MaintenanceRecord
      }>`SELECT record FROM maintenance_windows WHERE user_id = ${userId} ORDER BY id`,
    )
  }

  async updateMaintenance(w: MaintenanceRecord): Promise<MaintenanceRecord | undefined> {
    const r = await sql`
      UPDATE maintenance_windows SET record = ${JSON.stringify(w)}
      WHERE id = ${w.id}::uuid AND user_id = ${w.user_id}`.execute(this.db)
    return Number(r.numAffectedRows ?? 0) > 0 ? w : undefined
  }

  async deleteMaintenance(userId: string, id: string): Promise<boolean> {
    const r = await sql`
      DELETE FROM maintenance_windows WHERE id = ${id}::uuid AND user_id = ${userId}`.execute(this.db)
    return Number(r.numAffectedRows ?? 0) > 0
  }
}
