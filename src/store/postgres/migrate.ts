/**
 * Schema migrations with Kysely's Migrator: it takes a PostgreSQL advisory lock around the run, so
 * instances starting together on an empty database apply each migration once and the others wait,
 * then find nothing to do. A database migrated by a newer sitehealth (a migration this version
 * does not know) is refused with a clear message rather than used.
 */
import { Migrator, sql, type Kysely } from 'kysely'
import { DatabaseError } from './connect.js'
import { MIGRATIONS, migrationsFor, type MigrationContext } from './migrations/index.js'
import type { Database } from './schema.js'

export const MIGRATION_TABLE = 'sitehealth_migration'
export const MIGRATION_LOCK_TABLE = 'sitehealth_migration_lock'

export class SchemaTooNewError extends DatabaseError {
  constructor(unknown: string[], known: string) {
    super(
      `The database schema is newer than this sitehealth: it has migration ${unknown.join(', ')}, this version knows up to ${known}. Upgrade sitehealth (every instance) or use another database.`,
    )
    this.name = 'SchemaTooNewError'
  }
}

const LATEST = Object.keys(MIGRATIONS).sort().at(-1)!

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ s: string | null }>`SELECT current_schema() AS s`.execute(db)
  const s = rows[0]?.s
  if (!s) throw new DatabaseError('No schema of the search_path exists in this database; create it first.')
  return s
}

async function appliedMigrations(db: Kysely<Database>, schema: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
SELECT name FROM ${sql.table(`${schema}.${MIGRATION_TABLE}`)}`
    .execute(db)
    .catch((err: { code?: string }) => {
      if (err.code === '42P01') return { rows: [] } // no migration table yet: an empty database
      throw err
    })
  return rows.map((r) => r.name)
}

function refuseNewer(applied: string[]): void {
  const unknown = applied.filter((n) => !(n in MIGRATIONS))
  if (unknown.length > 0) throw new SchemaTooNewError(unknown.sort(), LATEST)
}

export interface MigrationResult {
  schema: string
  applied: string[]
  /** Migrations that were already there. */
  present: string[]
}

/**
 * Applies pending migrations (under the migrator's advisory lock); refuses a newer schema. `ctx`
 * gives the migrations that need it the server's sealer (0015: channels stored in clear).
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  ctx: MigrationContext = {},
): Promise<MigrationResult> {
  const schema = await currentSchema(db)
  const before = await appliedMigrations(db, schema)
  refuseNewer(before)
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrationsFor(ctx)) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    migrationTableSchema: schema,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    // another, newer instance may have migrated between our check and the lock
    refuseNewer(await appliedMigrations(db, schema))
    const e = error as { message?: string }
    throw new DatabaseError(`Migrating the database failed: ${(e.message ?? String(error)).split('\n')[0]}`, {
      cause: error,
    })
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
  return { schema, applied, present: before }
}
