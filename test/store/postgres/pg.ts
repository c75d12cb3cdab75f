/**
 * PostgreSQL for tests: every test file gets its own fresh database (dropped after), every store
 * opened in it its own schema. Where no PostgreSQL answers, the PG tests are skipped with one line;
 * with CI set they fail instead (docs/decisions.md#scale-out).
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { describeNeeding } from '../../helpers/needs.js'

export const ADMIN_URL =
  process.env.SITEHEALTH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

async function answers(): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 })
  try {
    await c.connect()
    await c.query('SELECT 1')
    return undefined
  } catch (err) {
    return (err as Error).message
  } finally {
    await c.end().catch(() => {})
  }
}

const problem = await answers()
const missing = problem && `no PostgreSQL at ${ADMIN_URL} (${problem})`

/** describe() when PostgreSQL answers; else a one-line skip, or (CI set) a failing test. */
export function describePg(name: string, fn: () => void): void {
  describeNeeding('PostgreSQL', missing, name, fn)
}

const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`

/** A fresh database; drop() removes it (ending any connection left). */
export async function freshDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = unique('sitehealth_test')
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  const u = new URL(ADMIN_URL)
  u.pathname = `/${name}`
  return {
    url: u.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL })
      await c.connect()
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await c.end()
      }
    },
  }
}

/** A fresh schema in `url`'s database. */
export async function freshSchema(url: string): Promise<string> {
  const name = unique('s')
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    await c.query(`CREATE SCHEMA ${name}`)
  } finally {
    await c.end()
  }
  return name
}

/** Runs one SQL statement against `url` (test set-up and inspection). */
export async function query<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  text: string,
  values?: unknown[],
) {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return (await c.query<T>(text, values)).rows
  } finally {
    await c.end()
  }
}

/** Every row of every table of `schema`, as text (what a dump of it would hold). */
export async function schemaRows(url: string, schema: string): Promise<string> {
  const tables = await query<{ t: string }>(
    url,
    'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1',
    [schema],
  )
  const out: string[] = []
  for (const { t } of tables) {
    const rows = await query<{ r: string }>(url, `SELECT x::text AS r FROM "${schema}"."${t}" x`)
    out.push(...rows.map((r) => r.r))
  }
  return out.join('\n')
}
