/**
 * The subscriber outbox on PostgreSQL (docs/status-pages.md): status_outbox_notices and status_outbox
 * (migration 0018). A claim takes free rows with FOR UPDATE SKIP LOCKED, so two instances never
 * hold one item; a lease that ran out (its holder stopped) is free again.
 */
import { sql, type Kysely } from 'kysely'
import type { OutboxItemRecord, OutboxNoticeRecord, SubscriberOutboxStore } from '../status-subscribers.js'
import { uuidv7 } from '../../shared/index.js'
import type { Database } from './schema.js'

/** Rows a statement inserts at most. */
const BATCH = 5000

interface ItemRow {
  seq: string
  id: string
  notice_id: string
  page_id: string
  subscriber_id: string
  attempts: number
  lease_until: string
}

const itemOf = ({ seq: _seq, ...r }: ItemRow): OutboxItemRecord => ({
  ...r,
  lease_until: Number(r.lease_until),
})

export class PgOutbox implements SubscriberOutboxStore {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueueNotice(notice: OutboxNoticeRecord, subscriberIds: string[]): Promise<void> {
    if (subscriberIds.length === 0) return
    const now = Date.now()
    await this.db.transaction().execute(async (trx) => {
      await sql`
        INSERT INTO status_outbox_notices (id, page_id, record)
        VALUES (${notice.id}::uuid, ${notice.page_id}::uuid, ${JSON.stringify(notice)}::json)`.execute(trx)
      for (let i = 0; i < subscriberIds.length; i += BATCH) {
        const part = subscriberIds.slice(i, i + BATCH)
        await sql`
          INSERT INTO status_outbox (id, notice_id, page_id, subscriber_id)
          SELECT id, ${notice.id}::uuid, ${notice.page_id}::uuid, subscriber_id
          FROM unnest(${part.map(() => uuidv7(now))}::uuid[], ${part}::uuid[]) AS t (id, subscriber_id)`.execute(
          trx,
        )
      }
    })
  }

  async getNotice(id: string): Promise<OutboxNoticeRecord | undefined> {
    const { rows } = await sql<{ record: OutboxNoticeRecord }>`
      SELECT record FROM status_outbox_notices WHERE id = ${id}::uuid`.execute(this.db)
    return rows[0]?.record
  }

  async claimOutbox(limit: number, leaseMs: number, now: number): Promise<OutboxItemRecord[]> {
    const { rows } = await sql<ItemRow>`
      UPDATE status_outbox SET lease_until = ${now + leaseMs}, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM status_outbox WHERE lease_until <= ${now}
        ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING seq, id, notice_id, page_id, subscriber_id, attempts, lease_until`.execute(this.db)
    return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map(itemOf)
  }

  async finishOutbox(ids: string[]): Promise<void> {
    if (ids.length === 0) return
    await sql`
      WITH gone AS (DELETE FROM status_outbox WHERE id = ANY(${ids}::uuid[]) RETURNING notice_id)
      DELETE FROM status_outbox_notices n
      WHERE n.id IN (SELECT notice_id FROM gone)
        AND NOT EXISTS (
          SELECT 1 FROM status_outbox o
          WHERE o.notice_id = n.id AND o.id <> ALL(${ids}::uuid[]))`.execute(this.db)
  }

  async releaseOutbox(ids: string[]): Promise<void> {
    if (ids.length === 0) return
    await sql`UPDATE status_outbox SET lease_until = 0 WHERE id = ANY(${ids}::uuid[])`.execute(this.db)
  }

  async countOutbox(): Promise<number> {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM status_outbox`.execute(this.db)
    return Number(rows[0]?.n ?? 0)
  }
}
