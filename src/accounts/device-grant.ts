/**
 * The device grant behind `sitehealth login` (RFC 8628): the CLI asks for a code, a signed-in
 * person types it in the dashboard and approves or denies, and the CLI's poll gets a new API key
 * once. Typed codes are throttled per session and client, misses across the server (§5.1).
 */
import type { AccountRecord, DeviceGrantRecord, KeyRecord } from '../store/types.js'
import { minutesLeft, refused, type AccountsCore } from './core.js'
import { keyName, type AccountKeys } from './keys.js'
import type { DeviceCodeThrottle } from './throttle.js'
import { newToken, newUserCode, normaliseUserCode, tokenHash } from './tokens.js'

/** RFC 8628 §3.2: expires_in and the polling interval of a device code. */
export const DEVICE_TTL_MS = 10 * 60_000
export const DEVICE_POLL_INTERVAL_S = 5

/** Who is typing a device user code: their session and client address (RFC 8628 §5.1 limits). */
export interface CodeEntry {
  session: string
  client: string
}

export type DevicePoll =
  | { status: 'approved'; key: string; record: KeyRecord }
  | { status: 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' }

export class DeviceGrants {
  constructor(
    private readonly c: AccountsCore,
    private readonly codes: DeviceCodeThrottle,
    private readonly keys: AccountKeys,
  ) {}

  /** A `sitehealth login` request from `client` (its address, shown on the approval page). */
  async start(nameInput: string, client: string | null) {
    const name = keyName(nameInput)
    const deviceCode = newToken()
    let userCode = newUserCode()
    while (await this.c.db.findDeviceGrantByUserCode(userCode)) userCode = newUserCode()
    const grant: DeviceGrantRecord = {
      id: tokenHash(deviceCode),
      user_code: userCode,
      name,
      status: 'pending',
      account_id: null,
      key_id: null,
      created_at: this.c.iso(),
      expires_at: this.c.iso(DEVICE_TTL_MS),
      polled_at: null,
      client_address: client,
    }
    await this.c.db.createDeviceGrant(grant)
    return { deviceCode, userCode, expiresInSec: DEVICE_TTL_MS / 1000, intervalSec: DEVICE_POLL_INTERVAL_S }
  }

  /**
   * The pending request a typed code names, or undefined (unknown, expired or already answered).
   * Every attempt counts against the session's and the address's limits before the code is looked
   * up (the refusal `throttled` past them); misses count across the server (RFC 8628 §5.1).
   */
  async pending(userCodeInput: string, who: CodeEntry): Promise<DeviceGrantRecord | undefined> {
    const wait = await this.codes.attempt(who.session, who.client)
    if (wait > 0) throw refused('throttled', `Too many codes tried. Try again in ${minutesLeft(wait)}.`, wait)
    const code = normaliseUserCode(userCodeInput)
    const grant = code ? await this.c.db.findDeviceGrantByUserCode(code) : undefined
    if (grant && grant.status === 'pending' && grant.expires_at > this.c.iso()) return grant
    if (await this.codes.missed()) await this.c.db.expirePendingDeviceGrants(this.c.iso())
    return undefined
  }

  async answer(
    account: AccountRecord,
    userCode: string,
    approve: boolean,
    who: CodeEntry,
  ): Promise<DeviceGrantRecord> {
    const grant = await this.pending(userCode, who)
    if (!grant)
      throw refused(
        'invalid_code',
        'This code is unknown, expired or already used. Run `sitehealth login` again.',
      )
    const done = await this.c.db.transitionDeviceGrant(grant.id, 'pending', {
      status: approve ? 'approved' : 'denied',
      account_id: account.id,
    })
    if (!done) throw refused('invalid_code', 'This code has already been answered.')
    return { ...grant, status: approve ? 'approved' : 'denied', account_id: account.id }
  }

  /** The CLI's poll: the key, once, after approval; the secret is made here, so it is never stored. */
  async poll(deviceCode: string): Promise<DevicePoll> {
    const grant = await this.c.db.getDeviceGrant(tokenHash(deviceCode))
    const now = this.c.iso()
    if (!grant || grant.expires_at <= now || grant.status === 'used') return { status: 'expired_token' }
    if (grant.status === 'denied') return { status: 'access_denied' }
    if (grant.status === 'pending') {
      const previous = await this.c.db.touchDeviceGrant(grant.id, now)
      const tooSoon = previous && Date.parse(now) - Date.parse(previous) < (DEVICE_POLL_INTERVAL_S * 1000) / 2
      return { status: tooSoon ? 'slow_down' : 'authorization_pending' }
    }
    const account = grant.account_id ? await this.c.db.getAccount(grant.account_id) : undefined
    if (!account || account.disabled_at) return { status: 'access_denied' }
    if (!(await this.c.db.transitionDeviceGrant(grant.id, 'approved', { status: 'used' })))
      return { status: 'expired_token' }
    const { key, record } = await this.keys.create(account.user_id, grant.name)
    return { status: 'approved', key, record }
  }
}
