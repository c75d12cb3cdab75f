/**
 * The signed links of status-page subscriptions (docs/status-pages.md): a confirmation link carries the
 * page and the address, expiring after CONFIRM_DAYS; an unsubscribe link carries the page and the
 * subscriber, and does not expire. Nothing is stored before a confirmation is followed: the link
 * is the pending state. A token is `<base64url JSON>.<base64url HMAC-SHA256>` under a key derived
 * from the server's secret key, so tokens made by one instance open on every instance sharing it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/** Days a confirmation link stays valid. */
export const CONFIRM_DAYS = 7

export interface ConfirmClaim {
  k: 'confirm'
  /** The page id. */
  p: string
  /** The address, lowercase. */
  e: string
  /** Expiry, Unix seconds. */
  x: number
}

export interface UnsubscribeClaim {
  k: 'unsubscribe'
  p: string
  /** The subscriber id. */
  s: string
}

export type Claim = ConfirmClaim | UnsubscribeClaim

/** Why a token does not open: the answer page says which, never more. */
export type LinkProblem = 'invalid' | 'expired'

export class LinkSigner {
  private readonly key: Buffer

  constructor(secretKey: string) {
    this.key = createHmac('sha256', secretKey).update('status-page subscriber links v1').digest()
  }

  private mac(data: string): Buffer {
    return createHmac('sha256', this.key).update(data).digest()
  }

  sign(claim: Claim): string {
    const data = Buffer.from(JSON.stringify(claim)).toString('base64url')
    return `${data}.${this.mac(data).toString('base64url')}`
  }

  confirmToken(pageId: string, email: string, now = Date.now()): string {
    return this.sign({ k: 'confirm', p: pageId, e: email, x: Math.floor(now / 1000) + CONFIRM_DAYS * 86_400 })
  }

  unsubscribeToken(pageId: string, subscriberId: string): string {
    return this.sign({ k: 'unsubscribe', p: pageId, s: subscriberId })
  }

  /** The claim of a genuine token of this kind, or why not. */
  open<K extends Claim['k']>(
    token: string,
    kind: K,
    now = Date.now(),
  ): Extract<Claim, { k: K }> | LinkProblem {
    if (token.length > 2048) return 'invalid'
    const [data, sig, extra] = token.split('.')
    if (!data || !sig || extra !== undefined) return 'invalid'
    // Compared as text, not as decoded bytes: base64url decoding ignores the unused bits of the
    // last character, so several spellings decode to one MAC, and only the one issued may open.
    const want = Buffer.from(this.mac(data).toString('base64url'))
    const got = Buffer.from(sig)
    if (got.length !== want.length || !timingSafeEqual(got, want)) return 'invalid'
    let claim: Claim
    try {
      claim = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as Claim
    } catch {
      return 'invalid'
    }
    if (!claim || typeof claim !== 'object' || claim.k !== kind || typeof claim.p !== 'string')
      return 'invalid'
    if (claim.k === 'confirm') {
      if (typeof claim.e !== 'string' || typeof claim.x !== 'number') return 'invalid'
      if (claim.x * 1000 < now) return 'expired'
    } else if (typeof claim.s !== 'string') return 'invalid'
    return claim as Extract<Claim, { k: K }>
  }
}
