/**
 * Group commit for the hot writes of the PostgreSQL store: calls for one key (a user's credit
 * reservations, a user's check commits, the run records of the scheduler) that arrive while a
 * statement for that key is in flight wait for it and then go together, as ONE statement. A call
 * that finds nothing in flight goes at once, so a quiet server adds no latency; a busy one makes
 * one round trip and one commit (one WAL flush) for many calls instead of one each.
 *
 * Why per key: every reservation and commit of one user updates that user's row, and the row lock
 * is held until the transaction's WAL flush is on disk, so one user's statements run one after the
 * other at the disk's flush rate (about 200 a second at 5 ms a flush) however many connections
 * the pool has. Batched, one flush serves every call that queued meanwhile.
 */

/** What a batch gives each call: its result, or the error that call alone failed with. */
export type Each<O> = { ok: O } | { error: unknown }

interface Waiting<I, O> {
  item: I
  resolve: (o: O) => void
  reject: (err: unknown) => void
}

export class KeyedBatcher<K, I, O> {
  private readonly queues = new Map<K, Waiting<I, O>[]>()

  /**
   * @param run one statement for many calls of a key; answers one `Each` per item, in order. When
   *   it throws, every call of the batch fails with its error.
   * @param maxBatch most calls in one statement.
   */
  constructor(
    private readonly run: (key: K, items: I[]) => Promise<Each<O>[]>,
    private readonly maxBatch = 64,
  ) {}

  submit(key: K, item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const queued = this.queues.get(key)
      if (queued) {
        queued.push({ item, resolve, reject })
        return
      }
      // nothing in flight for this key: this call goes now, later ones queue behind it
      const q: Waiting<I, O>[] = [{ item, resolve, reject }]
      this.queues.set(key, q)
      void this.drain(key, q)
    })
  }

  private async drain(key: K, q: Waiting<I, O>[]): Promise<void> {
    while (q.length > 0) {
      const batch = q.splice(0, this.maxBatch)
      try {
        const out = await this.run(
          key,
          batch.map((w) => w.item),
        )
        batch.forEach((w, i) => {
          const r = out[i]
          if (!r) w.reject(new Error('A batched write gave no answer for this call'))
          else if ('ok' in r) w.resolve(r.ok)
          else w.reject(r.error)
        })
      } catch (err) {
        for (const w of batch) w.reject(err)
      }
    }
    this.queues.delete(key)
  }
}

/** A statement as the driver gets it: text with $1…$n, and their values. */
export interface Statement {
  sql: string
  parameters: readonly unknown[]
}

/** A string as an SQL literal, as libpq's PQescapeLiteral writes it. */
function quote(text: string): string {
  const q = `'${text.replace(/'/g, "''")}'`
  return text.includes('\\') ? ` E${q.replace(/\\/g, '\\\\')}` : q
}

/** An array element of an array literal ('{…}'), as the driver writes it. */
function element(v: unknown): string {
  if (v === null || v === undefined) return 'NULL'
  if (Array.isArray(v)) return arrayText(v)
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v)
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

const arrayText = (vs: unknown[]): string => `{${vs.map(element).join(',')}}`

/**
 * A parameter's value as an untyped literal: the text the driver would send for it, quoted, so
 * that the server infers its type from where it stands, as it does for a parameter.
 */
export function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL'
  switch (typeof v) {
    case 'string':
      return quote(v)
    case 'number':
    case 'bigint':
    case 'boolean':
      return quote(String(v))
    case 'object':
      if (Array.isArray(v)) return quote(arrayText(v))
      if (v instanceof Date) return quote(v.toISOString())
      if (Buffer.isBuffer(v)) break
      return quote(JSON.stringify(v))
  }
  throw new TypeError(`No SQL literal for a value of type ${typeof v}`)
}

/** The statement with its parameters written in as literals (for a multi-statement query). */
export function inline(s: Statement): string {
  return s.sql.replace(/\$(\d+)/g, (_, n: string) => literal(s.parameters[Number(n) - 1]))
}
