/**
 * The attacks of issue 21 against the account service on the embedded store (the PostgreSQL
 * versions, across two instances, are in test/store/postgres/accounts.test.ts): account
 * enumeration through sign-up, the sign-in throttle race, guessing the current password, one
 * invite redeemed many times, guessing device user codes, and key names built to mislead.
 */
import { DomainError } from '../../src/shared/domain-error.js'
import { describe, expect, it } from 'vitest'
import { Accounts, type SignupPolicy } from '../../src/accounts/index.js'
import type { LowdbStore } from '../../src/store/index.js'
import { withEmbeddedStore } from '../store/each-store.js'

const PW = 'correct horse battery'
const FAST = { logN: 12, r: 8, p: 1 }

let store: LowdbStore
withEmbeddedStore((s) => (store = s))

const accounts = (
  signup: SignupPolicy = 'open',
  throttle?: ConstructorParameters<typeof Accounts>[0]['throttle'],
) =>
  new Accounts({ store, accounts: store.accounts, signup, initialCredits: 7, throttle, passwordCost: FAST })

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (err: unknown) => (err instanceof DomainError ? err.code : String(err)),
  )

describe('account enumeration through sign-up', () => {
  it('open sign-up answers the same for a taken email (any case or spacing) as for a new one', async () => {
    const svc = accounts('open')
    const ada = await svc.registration.signUp('ada@example.com', PW)
    expect(ada).not.toBeNull()
    for (const variant of ['ada@example.com', 'ADA@example.com', '  Ada@Example.com  '])
      expect(await svc.registration.signUp(variant, 'another password here')).toBeNull()
    // nothing changed for the owner: the old password still works, the new one does not
    expect((await svc.sessions.signIn('ada@example.com', PW, 'c1')).account.id).toBe(ada!.id)
    expect(await code(svc.sessions.signIn('ada@example.com', 'another password here', 'c1'))).toBe(
      'invalid_credentials',
    )
    expect(await store.accounts.listAccounts()).toHaveLength(1)
  })

  it('an invite used with a taken email answers the same and keeps the invite for its owner', async () => {
    const svc = accounts('closed')
    await accounts('open').registration.signUp('ada@example.com', PW)
    const token = await svc.invites.create({ credits: 3 })
    expect(await svc.registration.signUp('ADA@example.com', PW, token)).toBeNull()
    // the invite was not used up: its real recipient still gets in with it
    const bob = await svc.registration.signUp('bob@example.com', PW, token)
    expect(bob?.email).toBe('bob@example.com')
    expect(store.users.availableCredits(bob!.user_id)).toBe(3)
  })
})

describe('sign-in throttle', () => {
  it('24 concurrent wrong passwords for one account: only the allowed 5 are verified', async () => {
    const svc = accounts('open', { perAccount: 5, perClient: 1000, windowSec: 900 })
    await svc.registration.signUp('ada@example.com', PW)
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        code(svc.sessions.signIn('ada@example.com', `wrong ${i}`, `c${i}`)),
      ),
    )
    expect(results.filter((r) => r === 'invalid_credentials')).toHaveLength(5)
    expect(results.filter((r) => r === 'throttled')).toHaveLength(19)
  })

  it('successful sign-ins from one client do not use up its failure budget', async () => {
    const svc = accounts('open', { perAccount: 3, perClient: 3, windowSec: 900 })
    await svc.registration.signUp('ada@example.com', PW)
    for (let i = 0; i < 6; i++)
      expect(await code(svc.sessions.signIn('ada@example.com', PW, 'c1'))).toBe('resolved')
    // the client's budget is whole: a wrong password now is only wrong, not throttled
    expect(await code(svc.sessions.signIn('ada@example.com', 'wrong password', 'c1'))).toBe(
      'invalid_credentials',
    )
  })
})

describe('password change', () => {
  it('is throttled like sign-in, and a run of wrong current passwords signs the session out', async () => {
    const svc = accounts('open', { perAccount: 3, perClient: 1000, windowSec: 900 })
    await svc.registration.signUp('ada@example.com', PW)
    const s = await svc.sessions.signIn('ada@example.com', PW, 'c1')
    const tries = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        code(svc.sessions.changePassword(s, `guess number ${i}`, 'new password 123', 'c1')),
      ),
    )
    expect(tries.filter((t) => t === 'invalid_credentials').length).toBeLessThanOrEqual(3)
    expect(tries.some((t) => t === 'signed_out')).toBe(true)
    expect(await svc.sessions.of(s.token)).toBeUndefined()
    // the right password after the run does not change it either
    const again = await svc.sessions.signIn('ada@example.com', PW, 'c2').catch((e: unknown) => e)
    expect(again).toBeInstanceOf(DomainError)
    expect((again as DomainError).code).toBe('throttled')
  })
})

describe('invite redemption', () => {
  it('one invite without an email, 8 concurrent sign-ups: one account, the rest told the link was used', async () => {
    const svc = accounts('closed')
    const token = await svc.invites.create({ credits: 50 })
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        svc.registration.signUp(`user${i}@example.com`, PW, token).then(
          (a) => (a ? 'created' : 'null'),
          (err: unknown) => (err instanceof DomainError ? `${err.code}: ${err.message}` : String(err)),
        ),
      ),
    )
    expect(results.filter((r) => r === 'created')).toHaveLength(1)
    for (const r of results.filter((x) => x !== 'created')) expect(r).toMatch(/^invalid_link: .*already used/)
    expect(await store.accounts.listAccounts()).toHaveLength(1)
  })
})

describe('device user codes', () => {
  it('wrong codes are limited per session and per address, then the pending codes expire', async () => {
    const svc = accounts('open')
    const ada = (await svc.registration.signUp('ada@example.com', PW))!
    const grant = await svc.devices.start('laptop', '198.51.100.7')
    const guesses = Array.from({ length: 300 }, () => 'BBBB-BBBB')
    const perSession = await Promise.all(
      guesses.map((g) => code(svc.devices.answer(ada, g, true, { session: 's1', client: 'c1' }))),
    )
    expect(perSession.filter((r) => r === 'invalid_code').length).toBeLessThanOrEqual(10)
    expect(perSession.filter((r) => r === 'throttled').length).toBeGreaterThanOrEqual(290)
    // another session from the same address is limited too
    const sameAddress = await Promise.all(
      guesses.map((g) => code(svc.devices.answer(ada, g, true, { session: 's2', client: 'c1' }))),
    )
    expect(sameAddress.filter((r) => r === 'invalid_code').length).toBeLessThanOrEqual(20)
    // after repeated misses the pending code is no longer approvable: the CLI must start again
    for (let i = 0; i < 20; i++)
      await code(svc.devices.answer(ada, 'CCCC-CCCC', true, { session: `s${i + 3}`, client: `c${i + 3}` }))
    expect(await code(svc.devices.answer(ada, grant.userCode, true, { session: 'x', client: 'y' }))).toBe(
      'invalid_code',
    )
    expect((await svc.devices.poll(grant.deviceCode)).status).toBe('expired_token')
  })

  it('records where and when the request came from', async () => {
    const svc = accounts('open')
    const grant = await svc.devices.start('laptop', '198.51.100.7')
    const pending = await svc.devices.pending(grant.userCode, { session: 's1', client: 'c1' })
    expect(pending).toMatchObject({ name: 'laptop', client_address: '198.51.100.7' })
    expect(Date.parse(pending!.created_at)).toBeGreaterThan(Date.now() - 60_000)
  })
})

describe('key names', () => {
  const bad = [
    'laptop\u202Eexe.txt', // right-to-left override
    'ok\u2066hidden\u2069', // isolates
    'zero\u200Bwidth',
    'soft\u00ADhyphen',
    'line\nbreak: approve this',
    'tab\there',
    'bell\u0007',
    'sep\u2028line',
    'bom\uFEFF',
    'x'.repeat(101),
    '   ',
  ]
  it('refuses control, format and bidi characters and overlong names everywhere a key is named', async () => {
    const svc = accounts('open')
    const ada = await svc.registration.signUp('ada@example.com', PW)
    for (const name of bad) {
      expect(await code(svc.keys.create(ada!.user_id, name)), JSON.stringify(name)).toBe('invalid_name')
      expect(await code(svc.devices.start(name, 'c1')), JSON.stringify(name)).toBe('invalid_name')
    }
    // ordinary names, accents and other scripts included, are fine
    for (const name of ['sitehealth login on Zoë’s laptop', 'CI – déploiement', 'ключ 1', '鍵'])
      expect((await svc.keys.create(ada!.user_id, name)).record.name).toBe(name)
  })
})
