/** The API keys of an account's user: made with a name, listed newest first, revoked. */
import { randomUUID } from 'node:crypto'
import { displayPrefix, generateApiKey, hashKey } from '../contract/api-key.js'
import { keyNameProblem } from '../contract/key-name.js'
import type { KeyRecord } from '../store/types.js'
import { refused, type AccountsCore } from './core.js'

/** A key's name, trimmed, or the refusal `invalid_name` (contract/key-name.ts says why). */
export function keyName(input: string): string {
  const problem = keyNameProblem(input)
  if (problem) throw refused('invalid_name', problem)
  return input.trim()
}

export class AccountKeys {
  constructor(private readonly c: AccountsCore) {}

  /** A new key; its secret is in this answer only (only its hash is stored). */
  async create(userId: string, nameInput: string): Promise<{ key: string; record: KeyRecord }> {
    const name = keyName(nameInput)
    const key = generateApiKey()
    const record = await this.c.store.keys.create({
      id: randomUUID(),
      name,
      user_id: userId,
      prefix: displayPrefix(key),
      hash: hashKey(key),
      created_at: this.c.iso(),
      last_used_at: null,
      revoked_at: null,
    })
    return { key, record }
  }

  async of(userId: string): Promise<KeyRecord[]> {
    return (await this.c.store.keys.list())
      .filter((k) => k.user_id === userId)
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
  }

  /** Revokes one of the user's keys (any user's with null); another user's key is not found. */
  async revoke(userId: string | null, id: string): Promise<KeyRecord> {
    const key = (await this.c.store.keys.list()).find(
      (k) => k.id === id && (userId === null || k.user_id === userId),
    )
    if (!key) throw refused('not_found', 'No such key.')
    if (key.revoked_at) return key
    return (await this.c.store.keys.revoke(id, this.c.iso()))!
  }

  /** Revokes every live key of a user (a disabled account's keys stop working too). */
  async revokeAll(userId: string, at: string): Promise<void> {
    for (const k of await this.c.store.keys.list())
      if (k.user_id === userId && !k.revoked_at) await this.c.store.keys.revoke(k.id, at)
  }
}
