/**
 * Status-page subscribers on PostgreSQL (docs/status-pages.md): the status_subscribers table (migration
 * 0013; the outbox, 0018). An email is unique per page in a partial index, so a batch skips the ones there with
 * ON CONFLICT DO NOTHING; a batch is one statement (unnest of the columns).
 */
import { sql, type Kysely } from 'kysely'
import type {
  OutboxItemRecord,
  OutboxNoticeRecord,
  SubscriberRecord,
  SubscriberStore,
} from '../status-subscribers.js'
import type { Database } from './schema.js'
import { PgOutbox } from './status-outbox.js'

type Row = { record: SubscriberRecord }
/** Rows a statement inserts at most (its parameters stay well under PostgreSQL's limit). */
const BATCH = 5000

export class PgStatusSubscribers implements SubscriberStore {
  /** The notices on their way (status-outbox.ts). */
  private readonly outbox: PgOutbox

  constructor(private readonly db: Kysely<Database>) {
    this.outbox = new PgOutbox(db)
  }

  private async rows(query: ReturnType<typeof sql<Row>>): Promise<SubscriberRecord[]> {
    return (await query.execute(this.db)).rows.map((r) => r.record)
  }

  async addSubscribers(list: SubscriberRecord[]): Promise<SubscriberRecord[]> {
    const added: SubscriberRecord[] = []
    for (let i = 0; i < list.length; i += BATCH) {
      const part = list.slice(i, i + BATCH)
      added.push(
        ...(await this.rows(sql<Row>`
          INSERT INTO status_subscribers (id, page_id, type, target, record)
          SELECT * FROM unnest(
            ${part.map((s) => s.id)}::uuid[], ${part.map((s) => s.page_id)}::uuid[],
            ${part.map((s) => s.type)}::text[], ${part.map((s) => s.target)}::text[],
            ${part.map((s) => JSON.stringify(s))}::json[])
          ON CONFLICT DO NOTHING
          RETURNING record`)),
      )
    }
    return added
  }

  async getSubscriber(pageId: string, id: string): Promise<SubscriberRecord | undefined> {
    const [s] = await this.rows(
      sql<Row>`SELECT record FROM status_subscribers WHERE id = ${id}::uuid AND page_id = ${pageId}::uuid`,
    )
    return s
  }

  listSubscribers(pageId: string): Promise<SubscriberRecord[]> {
    return this.rows(
      sql<Row>`SELECT record FROM status_subscribers WHERE page_id = ${pageId}::uuid ORDER BY id`,
    )
  }

  async countSubscribers(pageId: string): Promise<number> {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM status_subscribers WHERE page_id = ${pageId}::uuid`.execute(this.db)
    return Number(rows[0]?.n ?? 0)
  }

  async deleteSubscriber(pageId: string, id: string): Promise<boolean> {
    const r = await sql`
      DELETE FROM status_subscribers WHERE id = ${id}::uuid AND page_id = ${pageId}::uuid`.execute(this.db)
    return Number(r.numAffectedRows ?? 0) > 0
  }

  async deletePageSubscribers(pageId: string): Promise<void> {
    await sql`DELETE FROM status_subscribers WHERE page_id = ${pageId}::uuid`.execute(this.db)
  }

  enqueueNotice(notice: OutboxNoticeRecord, subscriberIds: string[]) {
    return this.outbox.enqueueNotice(notice, subscriberIds)
  }

  getNotice(id: string) {
    return this.outbox.getNotice(id)
  }

  claimOutbox(limit: number, leaseMs: number, now: number): Promise<OutboxItemRecord[]> {
    return this.outbox.claimOutbox(limit, leaseMs, now)
  }

  finishOutbox(ids: string[]) {
    return this.outbox.finishOutbox(ids)
  }

  releaseOutbox(ids: string[]) {
    return this.outbox.releaseOutbox(ids)
  }

  countOutbox() {
    return this.outbox.countOutbox()
  }
}
