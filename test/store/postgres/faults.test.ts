/**
 * The PostgreSQL store when the database fails (docs/decisions.md#faults), through a TCP proxy the test
 * controls (the shared PostgreSQL itself is never stopped): waits are bounded on the client side,
 * the errors are recognised as an outage (503, not 500), and the background writer of key use
 * survives a failed write.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js'
import { unavailableDependency } from '../../../src/store/unavailable.js'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js'
import { ADMIN_URL, describePg, freshDatabase, freshSchema, query } from './pg.js'

describePg('PostgreSQL faults', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let proxy: TcpProxy
  const stores: PostgresStore[] = []
  beforeAll(async () => {
    db = await freshDatabase()
    const u = new URL(ADMIN_URL)
    proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) })
  })
  afterEach(async () => {
    proxy.resume()
    await proxy.accept()
    for (const s of stores.splice(0)) await s.close().catch(() => {})
  })
  afterAll(async () => {
    await proxy?.close()
    await db?.drop()
  })

  async function open(schema: string) {
    const store = await openPostgresStore({
      url: proxy.via(db.url),
      schema,
      poolSize: 2,
      queryTimeoutMs: 600,
      acquireTimeoutMs: 600,
      touchFlushMs: 50,
    })
    stores.push(store)
    return store
  }

  async function newKey(store: PostgresStore) {
    await store.users.ensure('u1', 5)
    return store.keys.create({
      id: randomUUID(),
      name: 'k',
      user_id: 'u1',
      prefix: 'shk_live_x',
      hash: randomUUID(),
      created_at: new Date().toISOString(),
      last_used_at: null,
      revoked_at: null,
    })
  }

  it('ends a query on a frozen database within the query timeout, as an outage, and works again after', async () => {
    const schema = await freshSchema(db.url)
    const store = await open(schema)
    await store.users.ensure('u1', 5)
    proxy.stall()
    const t0 = Date.now()
    const err = await store.users.get('u1').then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(Error)
    expect(Date.now() - t0).toBeLessThan(3000)
    expect(unavailableDependency(err)).toBe('database')
    proxy.resume()
    await expect.poll(() => store.users.get('u1').catch(() => undefined), { timeout: 5000 }).toBeTruthy()
  })

  it('bounds the wait for a connection when the database refuses, and recognises it as an outage', async () => {
    const schema = await freshSchema(db.url)
    const store = await open(schema)
    await proxy.refuse()
    const t0 = Date.now()
    const err = await store.users.get('nobody').then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(Date.now() - t0).toBeLessThan(3000)
    expect(unavailableDependency(err)).toBe('database')
    await proxy.accept()
    await expect
      .poll(
        () =>
          store.users.get('u9').then(
            () => 'ok',
            () => 'down',
          ),
        { timeout: 5000 },
      )
      .toBe('ok')
  })

  it('records key use again after a flush failed (one failed write no longer poisons the writer)', async () => {
    const schema = await freshSchema(db.url)
    const store = await open(schema)
    const key = await newKey(store)
    await proxy.refuse()
    store.keys.touch(key.id, '2026-11-25T10:00:00.000Z')
    await expect(store.keys.flush()).rejects.toBeDefined()
    await proxy.accept()
    // the retry writes the first use by itself, and later use still gets through
    await expect
      .poll(
        async () => (await query(db.url, `SELECT last_used_at FROM ${schema}.api_keys`))[0]?.last_used_at,
        {
          timeout: 8000,
        },
      )
      .toEqual(new Date('2026-11-25T10:00:00.000Z'))
    store.keys.touch(key.id, '2026-11-25T11:00:00.000Z')
    await store.keys.flush()
    const rows = await query(db.url, `SELECT last_used_at FROM ${schema}.api_keys`)
    expect(rows[0].last_used_at).toEqual(new Date('2026-11-25T11:00:00.000Z'))
  })
})
