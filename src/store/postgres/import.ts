/**
 * Copying an embedded deployment (a lowdb data dir) into PostgreSQL: users with their balances,
 * keys (revoked ones too), saved checks with their ids and created_at, so paging is identical;
 * monitors with their runs, events, channels, rollups and incidents; dashboard accounts with their live sessions,
 * invite links and device grants (so nobody has to sign in again behind the same address); status
 * pages.
 * Idempotent: whatever is already in the database (same user id, key id or hash, check id,
 * monitor, run or event id, account id or email, …) is left as it is, so a second run copies
 * nothing. Each user and its checks are copied in one transaction (an interrupted run leaves
 * whole users), each monitor with its history in one; a user that already exists in the database
 * keeps its balance.
 *
 * Alert channels' credentials (their URLs and signing secrets, src/store/channels.ts) are sealed
 * with the server's secret key, which differs between the backends (embedded:
 * `<data-dir>/secret-key` unless SITEHEALTH_SECRET_KEY is set; PostgreSQL: SITEHEALTH_SECRET_KEY,
 * else derived from the shared admin token). `reseal` opens each channel's sealed value with the
 * source key and seals it with the target's; every one is re-sealed before anything is written,
 * so a missing or wrong key stops the import with nothing copied. The source is opened with its
 * own key, so channels an older version stored there in clear are sealed first.
 */
import { sql, type Kysely } from 'kysely'
import { secretBox } from '../../shared/index.js'
import type { LowdbStore } from '../embedded/store.js'
import type { MonitorRecord } from '../monitors.js'
import type { LocatedBucket, RollupGranularity } from '../history.js'
import { insertChecks, recordJson } from './checks.js'
import { blockOf, COUNTS, SLOTS, SUMS } from './history.js'
import { insertRuns } from './runs.js'
import type { Database } from './schema.js'
import type { PostgresStore } from './store.js'

export interface ImportCounts {
  copied: number
  present: number
}

export interface ImportSummary {
  users: ImportCounts
  keys: ImportCounts & { revoked: number }
  checks: ImportCounts
  /** runs, events, rollup buckets and incidents: how many were copied. */
  monitors: ImportCounts & { runs: number; events: number; rollups: number; incidents: number }
  /** sessions, invites, device_grants: how many live ones were copied. */
  accounts: ImportCounts & { sessions: number; invites: number; device_grants: number }
  /** Public status pages (a slug already taken in the database by another page: present). */
  status_pages: ImportCounts
  /** Maintenance windows. */
  maintenance_windows: ImportCounts
}

/** A problem with the import's settings: its message is one line, fit to print as is. */
export class ImportError extends Error {
  override name = 'ImportError'
}

export interface SealingKeys {
  /** Keys the data dir's secrets may be sealed with (its secret-key file, SITEHEALTH_SECRET_KEY). */
  source: string[]
  /** The key the PostgreSQL instances seal with; undefined when not known (no secret can be copied). */
  target: string | undefined
}

/** Opens a secret sealed with one of the source keys and seals it for the target. */
export function resealer(keys: SealingKeys): (sealed: string) => string {
  const target = keys.target === undefined ? undefined : secretBox(keys.target)
  const sources = keys.source.map(secretBox)
  return (sealed) => {
    if (!target)
      throw new ImportError(
        'The data dir has alert channels with sealed credentials (webhook URLs and signing secrets): set SITEHEALTH_ADMIN_TOKEN to the token the PostgreSQL instances use (or SITEHEALTH_SECRET_KEY, if they set one) so they can be re-sealed.',
      )
    const opened = [target, ...sources].map((b) => tryOpen(b, sealed)).find((p) => p !== undefined)
    if (opened === undefined)
      throw new ImportError(
        "An alert channel's sealed credentials open with none of the keys given: set SITEHEALTH_SECRET_KEY to the key the embedded serve used, or keep its <data-dir>/secret-key file.",
      )
    return target.seal(opened)
  }
}

function tryOpen(box: ReturnType<typeof secretBox>, sealed: string): string | undefined {
  try {
    return box.open(sealed)
  } catch {
    return undefined
  }
}

export interface ImportProgress {
  /** Checks in the data dir (known before copying starts). */
  total: number
  done: number
}

export interface ImportOptions {
  onProgress?: (p: ImportProgress) => void
  /** Re-seals a channel's secrets for the target (see resealer); without it, a sealed value stops the import. */
  reseal?: (sealed: string) => string
}

export async function importDataDir(
  source: LowdbStore,
  target: PostgresStore,
  o: ImportOptions = {},
): Promise<ImportSummary> {
  const { onProgress } = o
  const summary: ImportSummary = {
    users: { copied: 0, present: 0 },
    keys: { copied: 0, present: 0, revoked: 0 },
    checks: { copied: 0, present: 0 },
    monitors: { copied: 0, present: 0, runs: 0, events: 0, rollups: 0, incidents: 0 },
    accounts: { copied: 0, present: 0, sessions: 0, invites: 0, device_grants: 0 },
    status_pages: { copied: 0, present: 0 },
    maintenance_windows: { copied: 0, present: 0 },
  }
  const reseal = o.reseal ?? resealer({ source: [], target: undefined })
  // first, before anything is written: every secret must be re-sealable
  const monitors = [...source.monitors.all()].map((m) => ({
    ...m,
    monitor: {
      ...m.monitor,
      channels: m.monitor.channels.map((c) => ({
        ...c,
        secrets: c.secrets === null ? null : reseal(c.secrets),
      })),
    } satisfies MonitorRecord,
  }))
  const users = source.users.all()
  // every stored check was charged: credits_used counts them (imports included)
  const progress = { total: users.reduce((n, u) => n + u.credits_used, 0), done: 0 }
  onProgress?.(progress)

  for (const u of users) {
    await target.db.transaction().execute(async (trx) => {
      const inserted = await sql`
        INSERT INTO users (id, credits_granted, credits_used, last_check_ms, created_at)
        VALUES (${u.id}, ${u.credits_granted}, ${u.credits_used}, ${u.last_check_ms}, ${u.created_at}::timestamptz)
        ON CONFLICT (id) DO NOTHING`.execute(trx)
      summary.users[Number(inserted.numAffectedRows ?? 0) > 0 ? 'copied' : 'present']++
      for await (const batch of source.checks.all(u.id)) {
        const copied = await insertChecks(
          trx,
          u.id,
          batch.map((c) => ({ id: c.id, ms: Date.parse(c.created_at), json: recordJson(c) })),
        )
        summary.checks.copied += copied
        summary.checks.present += batch.length - copied
        progress.done += batch.length
        onProgress?.(progress)
      }
      // a user that was already there must not commit a check at a time it now holds
      await sql`UPDATE users SET last_check_ms = greatest(last_check_ms, ${u.last_check_ms}::bigint) WHERE id = ${u.id}`.execute(
        trx,
      )
    })
  }

  const keys = source.keys.all()
  await target.db.transaction().execute(async (trx) => {
    for (const k of keys) {
      const r = await sql`
        INSERT INTO api_keys (id, name, user_id, prefix, hash, created_at, last_used_at, revoked_at)
        VALUES (${k.id}, ${k.name}, ${k.user_id}, ${k.prefix}, ${k.hash}, ${k.created_at}::timestamptz,
          ${k.last_used_at}::timestamptz, ${k.revoked_at}::timestamptz)
        ON CONFLICT DO NOTHING`.execute(trx)
      const copied = Number(r.numAffectedRows ?? 0) > 0
      summary.keys[copied ? 'copied' : 'present']++
      if (copied && k.revoked_at) summary.keys.revoked++
    }
  })

  for (const entry of monitors)
    await target.db.transaction().execute((trx) => importMonitor(trx, entry, summary.monitors))

  const acc = source.accounts.all()
  await target.db.transaction().execute((trx) => importAccounts(trx, acc, summary.accounts))
  await target.db.transaction().execute(async (trx) => {
    for (const p of source.statusPages.all()) {
      const r = await sql`
        INSERT INTO status_pages (id, user_id, slug, domain, record)
        VALUES (${p.id}, ${p.user_id}, ${p.slug}, ${p.domain ?? null}, ${JSON.stringify(p)})
        ON CONFLICT DO NOTHING`.execute(trx)
      summary.status_pages[Number(r.numAffectedRows ?? 0) > 0 ? 'copied' : 'present']++
    }
    for (const w of source.maintenance.all()) {
      const r = await sql`
        INSERT INTO maintenance_windows (id, user_id, record)
        VALUES (${w.id}, ${w.user_id}, ${JSON.stringify(w)})
        ON CONFLICT DO NOTHING`.execute(trx)
      summary.maintenance_windows[Number(r.numAffectedRows ?? 0) > 0 ? 'copied' : 'present']++
    }
  })
  return summary
}

/** A monitor's hourly and daily buckets, packed into their blocks (history.ts), in one statement; returns the buckets. */
async function importRollups(
  trx: Kysely<Database>,
  monitorId: string,
  rollups: LocatedBucket[],
): Promise<number> {
  if (rollups.length === 0) return 0
  const blocks = new Map<
    string,
    { g: RollupGranularity; block: number; location: string; counts: number[]; sums: number[] }
  >()
  for (const b of rollups) {
    const { block, slot } = blockOf(b.start, b.granularity)
    const key = `${b.granularity} ${block} ${b.location}`
    let row = blocks.get(key)
    if (!row)
      blocks.set(
        key,
        (row = {
          g: b.granularity,
          block,
          location: b.location,
          counts: new Array<number>(SLOTS[b.granularity] * COUNTS).fill(0),
          sums: new Array<number>(SLOTS[b.granularity] * SUMS).fill(0),
        }),
      )
    row.counts.splice(slot * COUNTS, COUNTS, b.runs, b.failed_runs, b.excluded_runs, b.saved_runs)
    row.sums.splice(slot * SUMS, SUMS, Math.round(b.response_ms_sum), b.health_sum, b.downtime_seconds)
  }
  const rows = [...blocks.values()]
  const r = await sql`
    INSERT INTO monitor_rollups (monitor_id, granularity, block, location, counts, sums)
    SELECT ${monitorId}::uuid, t.g, t.block, t.location, t.counts::int[], t.sums::bigint[]
    FROM unnest(${rows.map((x) => x.g)}::text[], ${rows.map((x) => x.block)}::int[],
      ${rows.map((x) => x.location)}::text[],
      ${rows.map((x) => `{${x.counts.join(',')}}`)}::text[], ${rows.map((x) => `{${x.sums.join(',')}}`)}::text[])
      AS t(g, block, location, counts, sums)
    ON CONFLICT DO NOTHING`.execute(trx)
  return Number(r.numAffectedRows ?? 0) > 0 ? rollups.length : 0
}

type MonitorEntry = ReturnType<LowdbStore['monitors']['all']> extends Iterable<infer E> ? E : never

/** One monitor with its runs, events, rollups and incidents; one already there keeps its history. */
async function importMonitor(
  trx: Kysely<Database>,
  { monitor: m, runs, events, rollups, incidents }: MonitorEntry,
  summary: ImportSummary['monitors'],
): Promise<void> {
  const r = await sql`
    INSERT INTO monitors (id, user_id, next_run_ms, paused, paused_reason, record)
    VALUES (${m.id}, ${m.user_id}, ${m.next_run_at === null ? null : String(Math.trunc(m.next_run_at))},
      ${m.paused}, ${m.paused_reason}, ${JSON.stringify(m)})
    ON CONFLICT (id) DO NOTHING`.execute(trx)
  if (Number(r.numAffectedRows ?? 0) === 0) {
    summary.present++
    return // its history is the database's now: runs since the first import stay as they are
  }
  summary.copied++
  summary.runs += await insertRuns(trx, m.id, runs)
  for (const e of events) {
    const er = await sql`
      INSERT INTO monitor_events (id, monitor_id, pending, record)
      VALUES (${e.id}, ${m.id}, ${e.deliveries.some((d) => d.status === 'pending')}, ${JSON.stringify(e)})
      ON CONFLICT (id) DO NOTHING`.execute(trx)
    summary.events += Number(er.numAffectedRows ?? 0)
  }
  summary.rollups += await importRollups(trx, m.id, rollups)
  for (const i of incidents) {
    const ir = await sql`
      INSERT INTO monitor_incidents (id, monitor_id, location, started_at, ended_at, cause)
      VALUES (${i.id}, ${m.id}, ${i.location}, ${i.started_at}::timestamptz, ${i.ended_at}::timestamptz, ${i.cause})
      ON CONFLICT DO NOTHING`.execute(trx)
    summary.incidents += Number(ir.numAffectedRows ?? 0)
  }
}

/** Accounts, and the sessions, invites and device grants of the ones copied. */
async function importAccounts(
  trx: Kysely<Database>,
  acc: ReturnType<LowdbStore['accounts']['all']>,
  summary: ImportSummary['accounts'],
): Promise<void> {
  const n = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0)
  for (const a of acc.accounts) {
    // ON CONFLICT without a target: the same id, or an account with this email made on PostgreSQL
    const r = await sql`
      INSERT INTO accounts (id, email, password_hash, user_id, admin, disabled_at, created_at)
      VALUES (${a.id}, ${a.email}, ${a.password_hash}, ${a.user_id}, ${a.admin},
        ${a.disabled_at}::timestamptz, ${a.created_at}::timestamptz)
      ON CONFLICT DO NOTHING`.execute(trx)
    summary[n(r) > 0 ? 'copied' : 'present']++
  }
  for (const s of acc.sessions) {
    // only sessions of the account that was copied (not of a same-email one made on PostgreSQL)
    const r = await sql`
      INSERT INTO sessions (id, account_id, csrf, created_at, expires_at)
      SELECT ${s.id}, ${s.account_id}, ${s.csrf}, ${s.created_at}::timestamptz, ${s.expires_at}::timestamptz
      WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ${s.account_id})
      ON CONFLICT DO NOTHING`.execute(trx)
    summary.sessions += n(r)
  }
  for (const i of acc.invites) {
    const r = await sql`
      INSERT INTO invites (id, kind, account_id, email, admin, credits, created_at, expires_at, used_at)
      VALUES (${i.id}, ${i.kind}, ${i.account_id}, ${i.email}, ${i.admin}, ${i.credits},
        ${i.created_at}::timestamptz, ${i.expires_at}::timestamptz, ${i.used_at}::timestamptz)
      ON CONFLICT DO NOTHING`.execute(trx)
    summary.invites += n(r)
  }
  for (const g of acc.device_grants) {
    const r = await sql`
      INSERT INTO device_grants (id, user_code, name, status, account_id, key_id, created_at, expires_at, polled_at,
        client_address)
      VALUES (${g.id}, ${g.user_code}, ${g.name}, ${g.status}, ${g.account_id}, ${g.key_id},
        ${g.created_at}::timestamptz, ${g.expires_at}::timestamptz, ${g.polled_at}::timestamptz,
        ${g.client_address ?? null})
      ON CONFLICT DO NOTHING`.execute(trx)
    summary.device_grants += n(r)
  }
}
