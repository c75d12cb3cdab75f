/**
 * Webhook signing secrets. A secret must be usable to sign, so it cannot be stored as a hash like
 * API keys: it is sealed with AES-256-GCM under a server key that lives outside the data files
 * (SITEHEALTH_SECRET_KEY, else `<data-dir>/secret-key`, mode 0600, generated at first start). A
 * copied monitors file or database dump alone does not reveal any secret, and a tampered sealed
 * value fails authentication instead of signing with garbage.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface SecretBox {
  seal(plain: string): string
  open(sealed: string): string
}

export function secretBox(keyMaterial: string): SecretBox {
  // any length of key material becomes a 256-bit key
  const key = createHash('sha256').update(keyMaterial, 'utf8').digest()
  return {
    seal(plain) {
      const iv = randomBytes(12)
      const c = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()])
      return `v1.${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url')}`
    },
    open(sealed) {
      const m = /^v1\.([A-Za-z0-9_-]+)$/.exec(sealed)
      if (!m) throw new Error('Not a sealed secret.')
      const raw = Buffer.from(m[1], 'base64url')
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
      d.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8')
    },
  }
}

/** The server's secret key: from the environment, else the data dir's key file (created once). */
export async function loadSecretKey(dataDir: string, fromEnv?: string): Promise<string> {
  if (fromEnv) return fromEnv
  const file = join(dataDir, 'secret-key')
  try {
    const k = (await readFile(file, 'utf8')).trim()
    if (k) return k
  } catch {
    // first start
  }
  const k = randomBytes(32).toString('base64url')
  await writeFile(file, k + '\n', { mode: 0o600, flag: 'wx' }).catch(async (err) => {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  })
  return (await readFile(file, 'utf8')).trim()
}

/** A new webhook secret: 32 random bytes, prefixed so secret scanners can spot it. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`
}

/** A sealing key derived from another shared secret (HKDF-SHA256, one label per use). */
export function deriveSecretKey(sharedSecret: string, label = 'webhook channel secrets v1'): string {
  return Buffer.from(hkdfSync('sha256', sharedSecret, 'sitehealth', label, 32)).toString('base64url')
}
