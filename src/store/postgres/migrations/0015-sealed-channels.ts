import { sql, type Kysely, type Migration } from 'kysely'
import { sealedChannels as sealedList, type ChannelSealer } from '../../channels.js'

/** Monitors read and written back per statement. */
const BATCH = 200

/**
 * Version 15: every credential of an alert channel sealed at rest (issue 32, item 4). A channel
 * lives in its monitor's record (`monitors.record`, json); it was stored with its target (a
 * webhook, Slack, Discord or Teams URL, an email address) in clear beside a sealed signing secret,
 * and is now `{type, config, secrets, masked, fingerprint}` (src/store/channels.ts): the fields
 * its provider marks secret and the signing secret sealed together with the server's key.
 *
 * Sealing needs that key, which the database never holds: the server gives the migration a
 * `ChannelSealer` (serve, from SITEHEALTH_SECRET_KEY or the admin token; `db migrate`, from the
 * same variables). A database with no channel in clear migrates without one; with some and no
 * sealer, the migration fails and nothing is changed (the migrator runs in one transaction). No
 * column changes: the record's shape is the record's business, and a channel keeps its id, so
 * the deliveries of events that name it are untouched.
 */
export function sealedChannels(seal: ChannelSealer | undefined): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`SET LOCAL statement_timeout = 0`.execute(db)
      let after = '00000000-0000-0000-0000-000000000000'
      for (;;) {
        const { rows } = await sql<{ id: string; record: { channels?: [] } & Record<string, unknown> }>`
          SELECT id, record FROM monitors
          WHERE id > ${after}::uuid AND jsonb_path_exists(record::jsonb, '$.channels[*].target')
          ORDER BY id LIMIT ${BATCH} FOR UPDATE`.execute(db)
        if (rows.length === 0) return
        after = rows[rows.length - 1].id
        const records = rows.map((r) => {
          const channels = sealedList(r.record.channels ?? [], seal, 'The database')
          return JSON.stringify({ ...r.record, channels })
        })
        await sql`
          UPDATE monitors m SET record = v.record::json
          FROM unnest(${rows.map((r) => r.id)}::uuid[], ${records}::text[]) AS v(id, record)
          WHERE m.id = v.id`.execute(db)
      }
    },
  }
}
