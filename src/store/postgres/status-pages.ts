/**
 * Status pages on PostgreSQL (docs/decisions.md#the-public-face): the status_pages table (migration 0006). The slug
 * is unique in the table, so two instances creating the same slug at once cannot both win: the
 * loser's insert (or update) fails on the index and becomes SlugTakenError. Nothing is cached per
 * process, so a page changed through one instance is what every other serves next.
 */
import { sql, type Kysely } from 'kysely'
import {
  DomainTakenError,
  SlugTakenError,
  type StatusPageRecord,
  type StatusPageStore,
} from '../status-pages.js'
import type { Database } from './schema.js'

const SLUG_KEY = 'status_pages_slug_key'

const DOMAIN_KEY = 'status_pages_domain_key'

/** The unique index a write ran into, as the store's error; other errors as they are. */
function clash(err: unknown, page: StatusPageRecord): unknown {
  if ((err as { code?: string }).code !== '23505') return err
  const constraint = (err as { constraint?: string }).constraint
  if (constraint === SLUG_KEY) return new SlugTakenError(page.slug)
  if (constraint === DOMAIN_KEY) return new DomainTakenError(page.domain ?? '')
  return err
}

export class PgStatusPages implements StatusPageStore {
  constructor(private readonly db: Kysely<Database>) {}

  private async rows(
    query: ReturnType<typeof sql<{ record: StatusPageRecord }>>,
  ): Promise<StatusPageRecord[]> {
    const r = await query.execute(this.db)
    return r.rows.map((x) => x.record)
  }

  async createStatusPage(page: StatusPageRecord): Promise<StatusPageRecord> {
    try {
      await sql`
        INSERT INTO status_pages (id, user_id, slug, domain, record)
        VALUES (${page.id}, ${page.user_id}, ${page.slug}, ${page.domain ?? null}, ${JSON.stringify(page)})`.execute(
        this.db,
      )
    } catch (err) {
      throw clash(err, page)
    }
    return page
  }

  async getStatusPage(userId: string, id: string): Promise<StatusPageRecord | undefined> {
    const [p] = await this.rows(
      sql<{
        record: StatusPageRecord
      }>`SELECT record FROM status_pages WHERE id = ${id}::uuid AND user_id = ${userId}`,
    )
    return p
  }

  async getStatusPageBySlug(slug: string): Promise<StatusPageRecord | undefined> {
    const [p] = await this.rows(
      sql<{ record: StatusPageRecord }>`SELECT record FROM status_pages WHERE slug = ${slug}`,
    )
    return p
  }

  async getStatusPageByDomain(domain: string): Promise<StatusPageRecord | undefined> {
    const [p] = await this.rows(
      sql<{ record: StatusPageRecord }>`SELECT record FROM status_pages WHERE domain = ${domain}`,
    )
    return p
  }

  listStatusPages(userId: string): Promise<StatusPageRecord[]> {
    return this.rows(
      sql<{
        record: StatusPageRecord
      }>`SELECT record FROM status_pages WHERE user_id = ${userId} ORDER BY id`,
    )
  }

  async updateStatusPage(page: StatusPageRecord): Promise<StatusPageRecord | undefined> {
    try {
      const r = await sql`
        UPDATE status_pages SET slug = ${page.slug}, domain = ${page.domain ?? null}, record = ${JSON.stringify(page)}
        WHERE id = ${page.id}::uuid AND user_id = ${page.user_id}`.execute(this.db)
      return Number(r.numAffectedRows ?? 0) > 0 ? page : undefined
    } catch (err) {
      throw clash(err, page)
    }
  }

  async deleteStatusPage(userId: string, id: string): Promise<boolean> {
    const r = await sql`DELETE FROM status_pages WHERE id = ${id}::uuid AND user_id = ${userId}`.execute(
      this.db,
    )
    return Number(r.numAffectedRows ?? 0) > 0
  }
}
