/**
 * Connecting to PostgreSQL: the pool (size, statement timeout; TLS from the URL's `sslmode`, which
 * the `pg` driver reads from the connection string), the Kysely instance over it, and one-line
 * messages for the ways a database URL goes wrong. Passwords never appear in a message.
 */
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { DatabaseError } from '../errors.js'
import type { Database } from './schema.js'
import { isPostgresUrl, redactUrl } from './url.js'

export { DatabaseError, isPostgresUrl, redactUrl }

export const DEFAULT_POOL_SIZE = 10
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000
/** How long a new connection, or a free one from a full pool, is waited for, ms (docs/decisions.md#faults). */
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 5000

export interface ConnectOptions {
  /** postgres:// or postgresql:// URL; `sslmode=require|verify-full|...` enables TLS. */
  url: string
  /** Connections in this process's pool (default 10). */
  poolSize?: number
  /** Longest a statement may run before the database cancels it, ms (default 10 000). */
  statementTimeoutMs?: number
  /**
   * Longest wait for a query's answer on the client side, ms (unset: none). Unlike the statement
   * timeout, which the database enforces, this also ends a wait on a database that is frozen or
   * cut off by a partition; the connection is then dropped, not reused.
   */
  queryTimeoutMs?: number
  /** Longest wait for a connection (a new one, or a free one from a full pool), ms (default 5000). */
  acquireTimeoutMs?: number
  /** Schema to use (search_path); tests give each run its own. Default: the URL's / server's. */
  schema?: string
}

/** Turns a driver error at connect time into a one-line DatabaseError. */
export function describeConnectError(url: string, err: unknown): DatabaseError {
  const e = err as NodeJS.ErrnoException & { code?: string; message?: string }
  const where = redactUrl(url)
  const reason = (() => {
    switch (e.code) {
      case 'ECONNREFUSED':
        return 'connection refused (is PostgreSQL running and listening there?)'
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return 'unknown host'
      case 'ETIMEDOUT':
        return 'timed out'
      case '28P01':
      case '28000':
        return 'authentication failed (check the user and password in the URL)'
      case '3D000':
        return `${e.message} (create it first, e.g. createdb)`
      default:
        return (e.message ?? String(err)).split('\n')[0]
    }
  })()
  return new DatabaseError(`Cannot use the PostgreSQL database ${where}: ${reason}.`, { cause: err })
}

export interface Connection {
  pool: pg.Pool
  db: Kysely<Database>
}

export function connect(o: ConnectOptions): Connection {
  if (!isPostgresUrl(o.url))
    throw new DatabaseError('The database URL must start with postgres:// or postgresql://.')
  try {
    new URL(o.url)
  } catch {
    throw new DatabaseError(
      'The database URL is not a valid URL (postgres://user:password@host:5432/database).',
    )
  }
  if (o.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(o.schema))
    throw new DatabaseError(`Invalid schema name ${JSON.stringify(o.schema)}.`)
  const pool = new pg.Pool({
    connectionString: o.url,
    max: o.poolSize ?? DEFAULT_POOL_SIZE,
    statement_timeout: o.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    connectionTimeoutMillis: o.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
    ...(o.queryTimeoutMs ? { query_timeout: o.queryTimeoutMs } : {}),
    // a dead peer (a partition, a host gone) is noticed by TCP instead of waiting forever
    keepAlive: true,
    application_name: 'sitehealth',
    ...(o.schema ? { options: `-c search_path=${o.schema}` } : {}),
  })
  // An idle client whose connection drops emits 'error' on the pool; without a listener that
  // would crash the process. The next query gets a fresh connection.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    // The pool listens for errors of idle clients only: a connection that ends while its client is
    // checked out (the database restarts mid-query) emits 'error' with no listener, which would
    // crash the process. The query itself fails, and the pool drops the client on release.
    client.on('error', () => {})
    dropOnReadTimeout(client)
  })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return { pool, db }
}

/**
 * A query whose answer did not come within query_timeout has already been sent: pg leaves the
 * connection waiting for that answer, so every later query on it would wait too. Destroying the
 * socket makes the pool replace the connection (and the server cancel the orphaned statement).
 */
function dropOnReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  ;(client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const out = query(...args)
    if (out instanceof Promise)
      out.catch((err: Error) => {
        if (err?.message === 'Query read timeout')
          (
            client as unknown as { connection?: { stream?: { destroy(): void } } }
          ).connection?.stream?.destroy()
      })
    return out
  }
}
