/**
 * Accounts on PostgreSQL across instances: two stores on one database stand for two `serve`
 * processes behind a load balancer. A session made through one works through the other and ends
 * everywhere at sign-out; a device grant started on one is approved on the other and collected
 * on the first; failed sign-ins spread over both meet one throttle.
 */
import { DomainError } from '../../../src/shared/domain-error.js'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { Accounts } from '../../../src/accounts/index.js'
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js'
import { hashKey } from '../../../src/contract/api-key.js'
import { describePg, freshDatabase, freshSchema, query } from './pg.js'

const PW = 'correct horse battery'
const FAST = { logN: 12, r: 8, p: 1 }

describePg('accounts on PostgreSQL, two instances', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  const stores: PostgresStore[] = []
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(async () => {
    await db?.drop()
  })
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close()
  })

  /** Two instances on one fresh schema, each with its own Accounts service (as serve makes it). */
  async function pair(throttle?: { perAccount: number; perClient: number; windowSec: number }) {
    const schema = await freshSchema(db.url)
    const open = async () => {
      const store = await openPostgresStore({ url: db.url, schema, poolSize: 3 })
      stores.push(store)
      return new Accounts({
        store,
        accounts: store.accounts,
        signup: 'open',
        initialCredits: 5,
        throttle,
        passwordCost: FAST,
      })
    }
    const a = await open()
    const b = await open()
    return { a, b, schema }
  }

  const code = async (p: Promise<unknown>) =>
    p.then(
      () => 'resolved',
      (err: unknown) => (err instanceof DomainError ? err.code : String(err)),
    )

  it('a session made through one instance is live on the other; signing out ends it on both', async () => {
    const { a, b } = await pair()
    const account = (await a.registration.signUp('ada@example.com', PW))!
    expect(await b.registration.signUp('ADA@example.com', PW)).toBeNull()
    const { token } = await b.sessions.signIn('ada@example.com', PW, '198.51.100.1')
    expect((await a.sessions.of(token))?.account.id).toBe(account.id)
    const onA = (await a.sessions.of(token))!
    await a.sessions.signOut(onA.session)
    expect(await b.sessions.of(token)).toBeUndefined()
    expect(await a.sessions.of(token)).toBeUndefined()
  })

  it('a device grant started on one instance is approved on the other and collected once', async () => {
    const { a, b } = await pair()
    const account = (await a.registration.signUp('bob@example.com', PW))!
    const grant = await a.devices.start('sitehealth login on laptop', '198.51.100.2')
    expect((await b.devices.poll(grant.deviceCode)).status).toBe('authorization_pending')
    // the next poll through the other instance is too soon: the poll time is shared
    expect((await a.devices.poll(grant.deviceCode)).status).toBe('slow_down')
    expect((await b.devices.pending(grant.userCode, { session: 's1', client: 'c1' }))?.name).toBe(
      'sitehealth login on laptop',
    )
    await b.devices.answer(account, grant.userCode, true, { session: 's1', client: 'c1' })
    expect(
      await code(a.devices.answer(account, grant.userCode, false, { session: 's1', client: 'c1' })),
    ).toBe('invalid_code')
    const polls = await Promise.all([a.devices.poll(grant.deviceCode), b.devices.poll(grant.deviceCode)])
    const approved = polls.filter((p) => p.status === 'approved')
    expect(approved).toHaveLength(1)
    expect(polls.map((p) => p.status).sort()).toEqual(['approved', 'expired_token'])
    const got = approved[0] as { key: string; record: { user_id: string } }
    expect(got.record.user_id).toBe(account.user_id)
    const onB = await b.store.keys.findByHash(hashKey(got.key))
    expect(onB?.name).toBe('sitehealth login on laptop')
  })

  it('failed sign-ins spread over both instances meet one throttle, kept in the database', async () => {
    const { a, b, schema } = await pair({ perAccount: 4, perClient: 100, windowSec: 600 })
    await a.registration.signUp('eve@example.com', PW)
    const tries: string[] = []
    for (let i = 0; i < 4; i++)
      tries.push(
        await code((i % 2 ? a : b).sessions.signIn('eve@example.com', 'wrong password!', `203.0.113.${i}`)),
      )
    expect(tries).toEqual(Array(4).fill('invalid_credentials'))
    // each instance alone saw only two failures: the limit of four holds across them
    for (const s of [a, b])
      expect(await code(s.sessions.signIn('eve@example.com', PW, '203.0.113.9'))).toBe('throttled')
    const rows = await query(
      db.url,
      `SELECT key, points FROM ${schema}.account_throttle WHERE key LIKE 'acct:%'`,
    )
    // every attempt is counted before its password is checked, the refused ones included
    expect(rows).toHaveLength(1)
    expect(rows[0].key).toBe('acct:eve@example.com')
    expect(rows[0].points).toBeGreaterThanOrEqual(4)
  })

  it('24 concurrent wrong passwords split over both instances: only the allowed 5 are verified', async () => {
    const { a, b } = await pair({ perAccount: 5, perClient: 1000, windowSec: 900 })
    await a.registration.signUp('race@example.com', PW)
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        code((i % 2 ? a : b).sessions.signIn('race@example.com', `wrong ${i}`, `203.0.113.${i}`)),
      ),
    )
    expect(results.filter((r) => r === 'invalid_credentials')).toHaveLength(5)
    expect(results.filter((r) => r === 'throttled')).toHaveLength(19)
  })

  it('one invite, 8 concurrent sign-ups over both instances: one account, the rest told the link was used', async () => {
    const { a, b } = await pair()
    const token = await a.invites.create({ credits: 40 })
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? a : b).registration.signUp(`user${i}@example.com`, PW, token).then(
          (acc) => (acc ? 'created' : 'null'),
          (err: unknown) => (err instanceof DomainError ? `${err.code}: ${err.message}` : String(err)),
        ),
      ),
    )
    expect(results.filter((r) => r === 'created')).toHaveLength(1)
    for (const r of results.filter((x) => x !== 'created')) expect(r).toMatch(/^invalid_link: .*already used/)
    expect(await a.db.listAccounts()).toHaveLength(1)
  })

  it('wrong device codes through both instances meet one limit, then the pending code ends', async () => {
    const { a, b } = await pair()
    const account = (await a.registration.signUp('dev@example.com', PW))!
    const grant = await a.devices.start('laptop', '198.51.100.3')
    const tries = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        code((i % 2 ? a : b).devices.answer(account, 'BBBB-BBBB', true, { session: 's1', client: 'c1' })),
      ),
    )
    expect(tries.filter((t) => t === 'invalid_code').length).toBeLessThanOrEqual(10)
    for (let i = 0; i < 30; i++)
      await code(
        (i % 2 ? a : b).devices.answer(account, 'CCCC-CCCC', true, { session: `x${i}`, client: `y${i}` }),
      )
    expect((await b.devices.poll(grant.deviceCode)).status).toBe('expired_token')
  })
})
