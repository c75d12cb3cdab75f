import { expect, it } from 'vitest'
import { DuplicateEmailError } from '../../../src/store/errors.js'
import type { AccountRecord, Store } from '../../../src/store/types.js'
import type { ContractContext } from './index.js'

const FUTURE = '2999-01-01T00:00:00.000Z'
const PAST = '2000-01-01T00:00:00.000Z'

function account(id: string, email: string): AccountRecord {
  return {
    id,
    email,
    password_hash: null,
    user_id: `acct-${id}`,
    admin: false,
    disabled_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
  }
}

/** The accounts concern (docs/decisions.md#accounts-and-the-dashboard); a backend that has none yet is skipped, and says so. */
export function accountsContract(t: ContractContext): void {
  async function open(skip: (note?: string) => void): Promise<Store & Required<Pick<Store, 'accounts'>>> {
    const store = await t.open()
    if (!store.accounts) skip(`the ${store.backend} backend has no accounts concern yet`)
    return store as Store & Required<Pick<Store, 'accounts'>>
  }

  it('creates accounts with unique emails, finds them by id, email and user, updates them, keeps them', async ({
    skip,
  }) => {
    let store = await open(skip)
    await store.accounts.createAccount(account('a1', 'ada@example.com'))
    await store.accounts.createAccount(account('a2', 'bob@example.com'))
    await expect(store.accounts.createAccount(account('a3', 'ada@example.com'))).rejects.toBeInstanceOf(
      DuplicateEmailError,
    )
    expect((await store.accounts.getAccount('a1'))?.email).toBe('ada@example.com')
    expect((await store.accounts.findAccountByEmail('bob@example.com'))?.id).toBe('a2')
    expect((await store.accounts.findAccountByUser('acct-a2'))?.id).toBe('a2')
    expect(await store.accounts.getAccount('nope')).toBeUndefined()
    const updated = await store.accounts.updateAccount('a1', { password_hash: 'scrypt$x', admin: true })
    expect(updated).toMatchObject({ id: 'a1', admin: true, password_hash: 'scrypt$x', user_id: 'acct-a1' })
    expect(await store.accounts.updateAccount('nope', { admin: true })).toBeUndefined()
    store = (await t.reopen(store)) as typeof store
    expect((await store.accounts.listAccounts()).map((a) => a.id).sort()).toEqual(['a1', 'a2'])
    expect((await store.accounts.getAccount('a1'))?.admin).toBe(true)
  })

  it('keeps live sessions, hides expired ones, deletes one or all of an account but one', async ({
    skip,
  }) => {
    let store = await open(skip)
    await store.accounts.createAccount(account('a1', 'ada@example.com'))
    const session = (id: string, expires_at = FUTURE) => ({
      id,
      account_id: 'a1',
      csrf: `csrf-${id}`,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at,
    })
    await store.accounts.createSession(session('s1'))
    await store.accounts.createSession(session('s2'))
    await store.accounts.createSession(session('s3'))
    await store.accounts.createSession(session('old', PAST))
    expect((await store.accounts.getSession('s1'))?.csrf).toBe('csrf-s1')
    expect(await store.accounts.getSession('old')).toBeUndefined()
    await store.accounts.deleteSession('s1')
    expect(await store.accounts.getSession('s1')).toBeUndefined()
    store = (await t.reopen(store)) as typeof store
    expect(await store.accounts.getSession('s2')).toBeDefined()
    await store.accounts.deleteSessionsOf('a1', 's3')
    expect(await store.accounts.getSession('s2')).toBeUndefined()
    expect(await store.accounts.getSession('s3')).toBeDefined()
  })

  it('uses an invite link once, and never an expired one', async ({ skip }) => {
    const store = await open(skip)
    const invite = (id: string, expires_at = FUTURE) => ({
      id,
      kind: 'invite' as const,
      account_id: null,
      email: null,
      admin: false,
      credits: null,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at,
      used_at: null,
    })
    await store.accounts.createInvite(invite('i1'))
    await store.accounts.createInvite(invite('old', PAST))
    expect((await store.accounts.getInvite('i1'))?.kind).toBe('invite')
    expect(await store.accounts.getInvite('old')).toBeUndefined()
    const uses = await Promise.all([
      store.accounts.useInvite('i1', '2026-06-01T00:00:00.000Z'),
      store.accounts.useInvite('i1', '2026-06-01T00:00:00.000Z'),
    ])
    expect(uses.sort()).toEqual([false, true])
    expect(await store.accounts.getInvite('i1')).toBeUndefined()
    expect(await store.accounts.useInvite('old', '2026-06-01T00:00:00.000Z')).toBe(false)
  })

  it('moves a device grant through its states exactly once each', async ({ skip }) => {
    let store = await open(skip)
    await store.accounts.createDeviceGrant({
      id: 'g1',
      user_code: 'BCDF-GHJK',
      name: 'laptop',
      status: 'pending',
      account_id: null,
      key_id: null,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: FUTURE,
      polled_at: null,
      client_address: '198.51.100.7',
    })
    expect(await store.accounts.findDeviceGrantByUserCode('BCDF-GHJK')).toMatchObject({
      id: 'g1',
      client_address: '198.51.100.7',
    })
    const approvals = await Promise.all([
      store.accounts.transitionDeviceGrant('g1', 'pending', { status: 'approved', account_id: 'a1' }),
      store.accounts.transitionDeviceGrant('g1', 'pending', { status: 'denied', account_id: 'a2' }),
    ])
    expect(approvals.sort()).toEqual([false, true])
    store = (await t.reopen(store)) as typeof store
    const g = await store.accounts.getDeviceGrant('g1')
    expect(g?.status).toBe(g?.account_id === 'a1' ? 'approved' : 'denied')
    expect(await store.accounts.transitionDeviceGrant('g1', 'pending', { status: 'approved' })).toBe(false)
    if (g?.status === 'approved') {
      expect(await store.accounts.transitionDeviceGrant('g1', 'approved', { status: 'used' })).toBe(true)
      expect(await store.accounts.transitionDeviceGrant('g1', 'approved', { status: 'used' })).toBe(false)
    }
    expect(await store.accounts.touchDeviceGrant('g1', '2026-01-01T00:00:01.000Z')).toBeNull()
    expect(await store.accounts.touchDeviceGrant('g1', '2026-01-01T00:00:02.000Z')).toBe(
      '2026-01-01T00:00:01.000Z',
    )
  })

  const invite = (id: string, expires_at = FUTURE) => ({
    id,
    kind: 'invite' as const,
    account_id: null,
    email: null,
    admin: false,
    credits: 5,
    created_at: '2026-01-01T00:00:00.000Z',
    expires_at,
    used_at: null,
  })

  it('redeems an invite into exactly one account however many race; a taken email keeps the link', async ({
    skip,
  }) => {
    let store = await open(skip)
    const at = '2026-06-01T00:00:00.000Z'
    await store.accounts.createAccount(account('a0', 'ada@example.com'))
    await store.accounts.createInvite(invite('i1'))
    await store.accounts.createInvite(invite('old', PAST))
    // a taken email changes nothing: the account is not made and the link stays usable
    expect(await store.accounts.redeemInvite('i1', at, account('x', 'ada@example.com'))).toBe('email_taken')
    expect((await store.accounts.getInvite('i1'))?.used_at).toBeNull()
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        store.accounts.redeemInvite('i1', at, account(`r${i}`, `user${i}@example.com`)),
      ),
    )
    expect(outcomes.filter((o) => o === 'redeemed')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'used')).toHaveLength(7)
    expect(await store.accounts.redeemInvite('old', at, account('y', 'old@example.com'))).toBe('used')
    store = (await t.reopen(store)) as typeof store
    expect(await store.accounts.listAccounts()).toHaveLength(2)
    expect(await store.accounts.getInvite('i1')).toBeUndefined()
  })

  it('ends every pending device grant at once, and only pending ones', async ({ skip }) => {
    let store = await open(skip)
    const grant = (id: string, user_code: string, status: 'pending' | 'approved') => ({
      id,
      user_code,
      name: 'laptop',
      status,
      account_id: null,
      key_id: null,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: FUTURE,
      polled_at: null,
      client_address: null,
    })
    await store.accounts.createDeviceGrant(grant('g1', 'BCDF-GHJK', 'pending'))
    await store.accounts.createDeviceGrant(grant('g2', 'BCDF-GHJL', 'pending'))
    await store.accounts.createDeviceGrant(grant('g3', 'BCDF-GHJM', 'approved'))
    const at = '2026-06-01T00:00:00.000Z'
    expect(await store.accounts.expirePendingDeviceGrants(at)).toBe(2)
    store = (await t.reopen(store)) as typeof store
    // ended: expired at `at` (a backend may also drop expired grants at its next write)
    const g1 = await store.accounts.getDeviceGrant('g1')
    expect(g1 === undefined || g1.expires_at === at).toBe(true)
    expect(await store.accounts.findDeviceGrantByUserCode('BCDF-GHJL')).not.toMatchObject({
      expires_at: FUTURE,
    })
    expect((await store.accounts.getDeviceGrant('g3'))?.expires_at).toBe(FUTURE)
    expect(await store.accounts.expirePendingDeviceGrants(at)).toBe(0)
  })
}
