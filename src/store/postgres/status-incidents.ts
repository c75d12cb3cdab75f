/**
 * Status-page incidents on PostgreSQL (docs/status-pages.md): the status_incidents table (migration 0013),
 * the record as jsonb so that an update is appended with its effect in one statement: two
 * instances appending at once both land.
 */
import { sql, type Kysely } from 'kysely'
import type {
  IncidentUpdateEffect,
  StatusIncidentRecord,
  StatusIncidentStore,
  StatusIncidentUpdateRecord,
} from '../status-incidents.js'
import type { Database } from './schema.js'

type Row = { record: StatusIncidentRecord }

export class PgStatusIncidents implements StatusIncidentStore {
  constructor(private readonly db: Kysely<Database>) {}

  private async rows(query: ReturnType<typeof sql<Row>>): Promise<StatusIncidentRecord[]> {
    return (await query.execute(this.db)).rows.map((r) => r.record)
  }

  async createIncident(incident: StatusIncidentRecord): Promise<StatusIncidentRecord> {
    await sql`
      INSERT INTO status_incidents (id, page_id, record)
      VALUES (${incident.id}, ${incident.page_id}, ${JSON.stringify(incident)}::jsonb)`.execute(this.db)
    return incident
  }

  async getIncident(pageId: string, id: string): Promise<StatusIncidentRecord | undefined> {
    const [i] = await this.rows(
      sql<Row>`SELECT record FROM status_incidents WHERE id = ${id}::uuid AND page_id = ${pageId}::uuid`,
    )
    return i
  }

  listIncidents(pageId: string): Promise<StatusIncidentRecord[]> {
    return this.rows(
      sql<Row>`SELECT record FROM status_incidents WHERE page_id = ${pageId}::uuid ORDER BY id DESC`,
    )
  }

  async updateIncident(incident: StatusIncidentRecord): Promise<StatusIncidentRecord | undefined> {
    const { updates: _kept, ...fields } = incident
    const [i] = await this.rows(sql<Row>`
      UPDATE status_incidents SET record = record || ${JSON.stringify(fields)}::jsonb
      WHERE id = ${incident.id}::uuid AND page_id = ${incident.page_id}::uuid
      RETURNING record`)
    return i
  }

  async appendIncidentUpdate(
    pageId: string,
    id: string,
    update: StatusIncidentUpdateRecord,
    effect: IncidentUpdateEffect,
  ): Promise<StatusIncidentRecord | undefined> {
    const [i] = await this.rows(sql<Row>`
      UPDATE status_incidents
      SET record = (record || ${JSON.stringify(effect)}::jsonb)
        || jsonb_build_object('updates', (record -> 'updates') || jsonb_build_array(${JSON.stringify(update)}::jsonb))
      WHERE id = ${id}::uuid AND page_id = ${pageId}::uuid
      RETURNING record`)
    return i
  }

  async deleteIncident(pageId: string, id: string): Promise<boolean> {
    const r =
      await sql`DELETE FROM status_incidents WHERE id = ${id}::uuid AND page_id = ${pageId}::uuid`.execute(
        this.db,
      )
    return Number(r.numAffectedRows ?? 0) > 0
  }

  async deletePageIncidents(pageId: string): Promise<void> {
    await sql`DELETE FROM status_incidents WHERE page_id = ${pageId}::uuid`.execute(this.db)
  }
}
