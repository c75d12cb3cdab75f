/**
 * API keys: the list, a new key, revoking one (also the admin's revoke of any key). A new key's
 * secret travels to the one page view after its redirect in a short-lived cookie, sealed
 * (AES-256-GCM) under a key derived from the admin token every instance shares, and bound to the
 * session: the redirect may land on another instance, and nothing is kept on the server.
 */
import type { H3Event } from 'h3'
import type { SignedIn } from '../../accounts/index.js'
import { keyNameProblem } from '../../contract/key-name.js'
import { deriveSecretKey, secretBox } from '../../shared/index.js'
import { cookie, readCookie, seeOther } from '../http.js'
import { field, param, type Handler, type Kit, type Routes } from '../kit.js'
import { keysPage, revokePage } from '../pages/keys.js'

const FLASH_COOKIE = 'sh_new_key'
const FLASH_TTL_MS = 5 * 60_000

export function keyRoutes(k: Kit): Routes {
  const { opts, accounts } = k.deps
  const flashBox = secretBox(deriveSecretKey(opts.adminToken, 'dashboard new-key flash v1'))

  /** The new key sealed in the flash cookie, if it is this session's and still fresh. */
  function openFlash(event: H3Event, s: SignedIn): { name: string; secret: string } | undefined {
    const sealed = readCookie(event, FLASH_COOKIE)
    if (!sealed) return undefined
    try {
      const f = JSON.parse(flashBox.open(sealed)) as {
        session: string
        name: string
        secret: string
        until: number
      }
      return f.session === s.session.id && f.until > Date.now()
        ? { name: f.name, secret: f.secret }
        : undefined
    } catch {
      return undefined
    }
  }

  const keysView = k.authed(async (event, s) => {
    const created = openFlash(event, s)
    const headers = new Headers()
    if (readCookie(event, FLASH_COOKIE) !== undefined)
      headers.append('set-cookie', cookie(FLASH_COOKIE, '', k.secure(event), 0))
    return k.page(
      keysPage(k.ctx(event, s), { keys: await accounts.keys.of(s.account.user_id), created }),
      200,
      headers,
    )
  })
  const keyCreate = k.signedPost(async (event, form, s) => {
    const name = field(form, 'name').trim()
    const problem = keyNameProblem(name)
    if (problem)
      return k.page(
        keysPage(k.ctx(event, s), { keys: await accounts.keys.of(s.account.user_id), error: problem, name }),
        400,
      )
    const { key } = await accounts.keys.create(s.account.user_id, name)
    const sealed = flashBox.seal(
      JSON.stringify({ session: s.session.id, name, secret: key, until: Date.now() + FLASH_TTL_MS }),
    )
    return seeOther('/keys', [cookie(FLASH_COOKIE, sealed, k.secure(event), FLASH_TTL_MS / 1000)])
  })

  return {
    '/keys': { GET: keysView, POST: keyCreate },
    '/keys/:id/revoke': revokeRoutes(k, '/keys', false),
  }
}

/** The confirm page and the revoke post of one key: the user's own, or (admin) anyone's. */
export function revokeRoutes(k: Kit, base: string, admin: boolean): Partial<Record<string, Handler>> {
  const { opts, accounts } = k.deps
  const find = async (event: H3Event, s: SignedIn) => {
    const id = param(event, 'id')
    return (await opts.store.keys.list()).find(
      (key) => key.id === id && (admin || key.user_id === s.account.user_id),
    )
  }
  return {
    GET: k.authed(async (event, s) => {
      const key = await find(event, s)
      if (!key) return k.notFound(event, s)
      return k.page(revokePage(k.ctx(event, s), key, `${base}/${key.id}/revoke`, base))
    }, admin),
    POST: k.signedPost(
      async (event, _form, s) => {
        const key = await find(event, s)
        if (!key) return k.notFound(event, s)
        await accounts.keys.revoke(admin ? null : s.account.user_id, key.id)
        return seeOther(base)
      },
      { admin },
    ),
  }
}
