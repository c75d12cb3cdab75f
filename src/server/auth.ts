/**
 * Bearer authentication. Only SHA-256 hashes of keys are stored (right for high-entropy keys);
 * the stored hash is compared in constant time. Admin calls use a separate token.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { H3Event } from 'h3'
import { isWellFormedApiKey } from '../contract/api-key.js'
import type { KeyRecord, Store } from '../store/types.js'
import { ServiceError } from './errors.js'

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex')

function bearer(event: H3Event): string | undefined {
  const h = event.req.headers.get('authorization')
  const m = h ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h) : null
  return m?.[1]
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest()
  const hb = createHash('sha256').update(b).digest()
  return timingSafeEqual(ha, hb)
}

const invalidKey = () =>
  new ServiceError(
    401,
    'invalid_api_key',
    'Invalid or missing API key. Send it as `Authorization: Bearer <key>`.',
    {
      'www-authenticate': 'Bearer realm="sitehealth"',
    },
  )

export function authenticate(event: H3Event, store: Store): KeyRecord {
  const key = bearer(event)
  if (!key || !isWellFormedApiKey(key)) throw invalidKey()
  const hash = hashKey(key)
  const record = store.findKeyByHash(hash)
  if (!record || !timingSafeEqual(Buffer.from(record.hash, 'hex'), Buffer.from(hash, 'hex')))
    throw invalidKey()
  if (record.revoked_at)
    throw new ServiceError(
      401,
      'revoked_api_key',
      'This API key has been revoked. Create a new key to continue.',
      {
        'www-authenticate': 'Bearer realm="sitehealth", error="invalid_token"',
      },
    )
  store.touchKey(record.id, new Date().toISOString())
  return record
}

export function authenticateAdmin(event: H3Event, adminToken: string): void {
  const token = bearer(event)
  if (!token || !sameSecret(token, adminToken))
    throw new ServiceError(401, 'invalid_api_key', 'Invalid or missing admin token.', {
      'www-authenticate': 'Bearer realm="sitehealth-admin"',
    })
}
