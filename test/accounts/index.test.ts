/** Accounts against a real embedded store: policies, links, sessions, throttling, disabling, the device grant. */
import { DomainError } from '../../src/shared/domain-error.js'
import { describe, expect, it } from 'vitest'
import { Accounts, type SignupPolicy } from '../../src/accounts/index.js'
import { hashPassword, passwordProblem, verifyPassword } from '../../src/accounts/password.js'
import { normaliseEmail, normaliseUserCode, newUserCode } from '../../src/accounts/tokens.js'
import type { LowdbStore } from '../../src/store/index.js'
import { withEmbeddedStore } from '../store/each-store.js'

const PW = 'correct horse battery'
/** Tests only: scrypt at 2^12 keeps them quick; the production cost is tested once below. */
const FAST = { logN: 12, r: 8, p: 1 }

let store: LowdbStore
withEmbeddedStore((s) => (store = s))

const accounts = (
  signup: SignupPolicy = 'open',
  throttle?: ConstructorParameters<typeof Accounts>[0]['throttle'],
) =>
  new Accounts({ store, accounts: store.accounts, signup, initialCredits: 7, throttle, passwordCost: FAST })

/** A sign-up that must have made its account (a taken email answers null). */
const made = async <T>(p: Promise<T | null>): Promise<T> => {
  const a = await p
  if (!a) throw new Error('sign-up made no account')
  return a
}
const W = { session: 's1', client: 'c1' }

const code = async (p: Promise<unknown>) => {
  try {
    await p
  } catch (err) {
    return err instanceof DomainError ? err.code : String(err)
  }
  return 'resolved'
}

describe('passwords', () => {
  it('hashes with scrypt and a salt, verifies only the right password, rejects a missing hash', async () => {
    const h = await hashPassword(PW)
    expect(h).toMatch(/^scrypt\$17\$8\$1\$/)
    expect(await hashPassword(PW)).not.toBe(h)
    expect(await verifyPassword(PW, h)).toBe(true)
    expect(await verifyPassword('correct horse batterY', h)).toBe(false)
    expect(await verifyPassword(PW, null)).toBe(false)
    expect(await verifyPassword(PW, 'plain')).toBe(false)
    // a stored hash cannot ask for an absurd cost
    expect(await verifyPassword(PW, h.replace('scrypt$17$', 'scrypt$30$'))).toBe(false)
  })
  it('asks for length, not composition', () => {
    expect(passwordProblem('short')).toMatch(/at least 10/)
    expect(passwordProblem('a@example.com', 'A@example.com')).toMatch(/email/)
    expect(passwordProblem('longenoughpassword')).toBeNull()
  })
  it('reads user codes and emails forgivingly', () => {
    const c = newUserCode()
    expect(c).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/)
    expect(normaliseUserCode(c.toLowerCase().replace('-', ' '))).toBe(c)
    expect(normaliseUserCode('AAAA-AAAA')).toBeNull()
    expect(normaliseEmail('  Ada@Example.COM ')).toBe('ada@example.com')
    expect(normaliseEmail('not-an-email')).toBeNull()
  })
})

describe('sign-up policies and links', () => {
  it('open lets anyone in with the initial credits; closed and invite refuse without a link', async () => {
    const a = await made(accounts('open').registration.signUp('Ada@example.com', PW))
    expect(a.email).toBe('ada@example.com')
    expect(store.users.availableCredits(a.user_id)).toBe(7)
    expect(await accounts('open').registration.signUp('ada@example.com', PW)).toBeNull()
    expect(await code(accounts('closed').registration.signUp('bob@example.com', PW))).toBe('signup_closed')
    expect(await code(accounts('invite').registration.signUp('bob@example.com', PW))).toBe('signup_closed')
    expect(await code(accounts('open').registration.signUp('bob@example.com', 'short'))).toBe('weak_password')
  })

  it('an invite link works once, whatever the policy, and only for its email when it names one', async () => {
    const svc = accounts('closed')
    const token = await svc.invites.create({ email: 'bob@example.com', credits: 3 })
    expect(await code(svc.registration.signUp('eve@example.com', PW, token))).toBe('invalid_email')
    const bob = await made(svc.registration.signUp('bob@example.com', PW, token))
    expect(store.users.availableCredits(bob.user_id)).toBe(3)
    expect(await code(svc.registration.signUp('bob2@example.com', PW, token))).toBe('invalid_link')
  })

  it('an admin-made account has no password until its setup link sets one, once', async () => {
    const svc = accounts('closed')
    const { account, setupToken } = await svc.registration.createByAdmin('root@example.com', true, null)
    expect(account.admin).toBe(true)
    expect(await code(svc.sessions.signIn('root@example.com', PW, 'c1'))).toBe('invalid_credentials')
    await svc.invites.completeSetup(setupToken, PW)
    expect((await svc.sessions.signIn('root@example.com', PW, 'c1')).account.id).toBe(account.id)
    expect(await code(svc.invites.completeSetup(setupToken, 'another password'))).toBe('invalid_link')
  })
})

describe('sessions', () => {
  it('a new session (and CSRF token) at every sign-in; sign-out ends it', async () => {
    const svc = accounts()
    await svc.registration.signUp('ada@example.com', PW)
    const one = await svc.sessions.signIn('ada@example.com', PW, 'c1')
    const two = await svc.sessions.signIn('ADA@example.com', PW, 'c1')
    expect(one.token).not.toBe(two.token)
    expect(one.session.csrf).not.toBe(two.session.csrf)
    expect((await svc.sessions.of(one.token))?.account.email).toBe('ada@example.com')
    // only hashes are stored
    expect(one.session.id).not.toContain(one.token)
    await svc.sessions.signOut(one.session)
    expect(await svc.sessions.of(one.token)).toBeUndefined()
    expect(await svc.sessions.of(two.token)).toBeDefined()
    expect(await svc.sessions.of('garbage')).toBeUndefined()
  })

  it('changing the password needs the current one and ends the other sessions', async () => {
    const svc = accounts()
    await svc.registration.signUp('ada@example.com', PW)
    const here = await svc.sessions.signIn('ada@example.com', PW, 'c1')
    const elsewhere = await svc.sessions.signIn('ada@example.com', PW, 'c2')
    expect(await code(svc.sessions.changePassword(here, 'wrong password', 'new password 123', 'c1'))).toBe(
      'invalid_credentials',
    )
    await svc.sessions.changePassword(here, PW, 'new password 123', 'c1')
    expect(await svc.sessions.of(here.token)).toBeDefined()
    expect(await svc.sessions.of(elsewhere.token)).toBeUndefined()
    expect(await code(svc.sessions.signIn('ada@example.com', PW, 'c1'))).toBe('invalid_credentials')
    await svc.sessions.signIn('ada@example.com', 'new password 123', 'c1')
  })

  it('throttles failed sign-ins per account (even with the right password after) and per client', async () => {
    const svc = accounts('open', { perAccount: 3, perClient: 5, windowSec: 60 })
    await svc.registration.signUp('ada@example.com', PW)
    await svc.registration.signUp('bob@example.com', PW)
    for (let i = 0; i < 3; i++)
      expect(await code(svc.sessions.signIn('ada@example.com', 'wrong', 'c1'))).toBe('invalid_credentials')
    expect(await code(svc.sessions.signIn('ada@example.com', PW, 'c2'))).toBe('throttled')
    // another account from another client is unaffected
    await svc.sessions.signIn('bob@example.com', PW, 'c3')
    // one client trying many accounts is stopped too
    for (let i = 0; i < 2; i++) await code(svc.sessions.signIn(`nobody${i}@example.com`, 'wrong', 'c1'))
    expect(await code(svc.sessions.signIn('bob@example.com', PW, 'c1'))).toBe('throttled')
  })

  it('a success clears the account count', async () => {
    const svc = accounts('open', { perAccount: 3, perClient: 50, windowSec: 60 })
    await svc.registration.signUp('ada@example.com', PW)
    // three rounds of two failures and a success: six failures in all, twice the limit of three,
    // yet never throttled, because each success starts the account's count afresh
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 2; i++)
        expect(await code(svc.sessions.signIn('ada@example.com', 'wrong', 'c1'))).toBe('invalid_credentials')
      const session = await svc.sessions.signIn('ada@example.com', PW, 'c1')
      expect(await svc.sessions.of(session.token)).toBeDefined()
    }
    // without a success in between, the limit holds: three failures lock the account
    for (let i = 0; i < 3; i++) await code(svc.sessions.signIn('ada@example.com', 'wrong', 'c1'))
    expect(await code(svc.sessions.signIn('ada@example.com', PW, 'c1'))).toBe('throttled')
  })

  it('disabling ends sessions, refuses sign-in and revokes the keys', async () => {
    const svc = accounts()
    const ada = await made(svc.registration.signUp('ada@example.com', PW))
    const s = await svc.sessions.signIn('ada@example.com', PW, 'c1')
    const { record } = await svc.keys.create(ada.user_id, 'laptop')
    await svc.disable(ada.id)
    expect(await svc.sessions.of(s.token)).toBeUndefined()
    expect(await code(svc.sessions.signIn('ada@example.com', PW, 'c1'))).toBe('invalid_credentials')
    expect(store.keys.findByHash(record.hash)?.revoked_at).not.toBeNull()
  })
})

describe('keys of an account', () => {
  it('lists only its own keys; another user cannot revoke them', async () => {
    const svc = accounts()
    const ada = await made(svc.registration.signUp('ada@example.com', PW))
    const bob = await made(svc.registration.signUp('bob@example.com', PW))
    const { key, record } = await svc.keys.create(ada.user_id, 'ci')
    expect(key).toMatch(/^shk_live_/)
    await svc.keys.create(bob.user_id, 'bob key')
    expect((await svc.keys.of(ada.user_id)).map((k) => k.name)).toEqual(['ci'])
    expect(await code(svc.keys.revoke(bob.user_id, record.id))).toBe('not_found')
    expect((await svc.keys.revoke(ada.user_id, record.id)).revoked_at).not.toBeNull()
  })
})

describe('device grant', () => {
  it('pending, then slow_down when polled too fast, then the key once after approval', async () => {
    const svc = accounts()
    const ada = await made(svc.registration.signUp('ada@example.com', PW))
    const g = await svc.devices.start('laptop', '192.0.2.1')
    expect((await svc.devices.poll(g.deviceCode)).status).toBe('authorization_pending')
    expect((await svc.devices.poll(g.deviceCode)).status).toBe('slow_down')
    expect((await svc.devices.pending(g.userCode.toLowerCase(), W))?.name).toBe('laptop')
    await svc.devices.answer(ada, g.userCode, true, W)
    expect(await code(svc.devices.answer(ada, g.userCode, true, W))).toBe('invalid_code')
    const r = await svc.devices.poll(g.deviceCode)
    expect(r.status).toBe('approved')
    if (r.status !== 'approved') return
    expect(r.record.user_id).toBe(ada.user_id)
    expect(r.record.name).toBe('laptop')
    expect(store.keys.findByHash(r.record.hash)?.id).toBe(r.record.id)
    expect((await svc.devices.poll(g.deviceCode)).status).toBe('expired_token')
  })

  it('denied is access_denied; an unknown device code is expired_token', async () => {
    const svc = accounts()
    const ada = await made(svc.registration.signUp('ada@example.com', PW))
    const g = await svc.devices.start('laptop', '192.0.2.1')
    await svc.devices.answer(ada, g.userCode, false, W)
    expect((await svc.devices.poll(g.deviceCode)).status).toBe('access_denied')
    expect((await svc.devices.poll('nope')).status).toBe('expired_token')
  })

  it('expires after its lifetime', async () => {
    let now = Date.now()
    const svc = new Accounts({
      store,
      accounts: store.accounts,
      signup: 'open',
      initialCredits: 1,
      now: () => now,
    })
    const ada = await made(svc.registration.signUp('ada@example.com', PW))
    const g = await svc.devices.start('laptop', '192.0.2.1')
    now += 11 * 60_000
    expect(await svc.devices.pending(g.userCode, W)).toBeUndefined()
    expect(await code(svc.devices.answer(ada, g.userCode, true, W))).toBe('invalid_code')
    expect((await svc.devices.poll(g.deviceCode)).status).toBe('expired_token')
  })
})
