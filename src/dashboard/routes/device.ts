/** The device page of `sitehealth login`: approve or deny a terminal's request for a key. */
import { DomainError } from '../../shared/index.js'
import type { H3Event } from 'h3'
import { type SignedIn } from '../../accounts/index.js'
import { ACCOUNT_PATHS } from '../../contract/accounts.js'
import { clientOf } from '../http.js'
import { field, type Kit, type Routes } from '../kit.js'
import { devicePage } from '../pages/account.js'

export function deviceRoutes(k: Kit): Routes {
  const { accounts } = k.deps

  const codeEntry = (event: H3Event, s: SignedIn) => ({ session: s.session.id, client: clientOf(event) })
  const deviceView = k.authed(async (event, s) => {
    const code = event.url.searchParams.get('code') ?? undefined
    try {
      const grant = code ? await accounts.devices.pending(code, codeEntry(event, s)) : undefined
      const error =
        code && !grant
          ? 'This code is unknown, expired or already used. Run `sitehealth login` again.'
          : undefined
      return k.page(devicePage(k.ctx(event, s), { grant, code, error }), error ? 404 : 200)
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      return k.page(devicePage(k.ctx(event, s), { error: err.message }), 429, {
        'retry-after': String(err.retryAfterSec ?? 60),
      })
    }
  })
  const deviceAnswer = k.signedPost(async (event, form, s) => {
    const approve = form.get('decision') === 'approve'
    try {
      const g = await accounts.devices.answer(s.account, field(form, 'code'), approve, codeEntry(event, s))
      const done = approve
        ? `Approved: the key “${g.name}” is on its way to your terminal. You can close this page.`
        : 'Denied: no key was made.'
      return k.page(devicePage(k.ctx(event, s), { done }))
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      const status = err.code === 'throttled' ? 429 : 400
      const headers: Record<string, string> = err.retryAfterSec
        ? { 'retry-after': String(err.retryAfterSec) }
        : {}
      return k.page(devicePage(k.ctx(event, s), { error: err.message }), status, headers)
    }
  })

  return { [ACCOUNT_PATHS.devicePage]: { GET: deviceView, POST: deviceAnswer } }
}
