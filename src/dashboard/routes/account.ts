/** The signed-in account: its page, changing the password. */
import { DomainError } from '../../shared/index.js'
import { clientOf, cookie, SESSION_COOKIE } from '../http.js'
import { field, type Kit, type Routes } from '../kit.js'
import { accountPage } from '../pages/account.js'
import { messagePage } from '../pages/auth.js'

export function accountRoutes(k: Kit): Routes {
  const { opts, accounts } = k.deps
  const { store } = opts

  const accountView = k.authed(async (event, s) =>
    k.page(accountPage(k.ctx(event, s), { credits: await store.users.availableCredits(s.account.user_id) })),
  )
  const passwordChange = k.signedPost(async (event, form, s) => {
    const credits = await store.users.availableCredits(s.account.user_id)
    try {
      await accounts.sessions.changePassword(
        s,
        field(form, 'current'),
        field(form, 'password'),
        clientOf(event),
      )
      return k.page(
        accountPage(k.ctx(event, s), { credits, done: 'Password changed. Other sessions are signed out.' }),
      )
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      if (err.code === 'signed_out') {
        const res = k.page(messagePage(k.ctx(event, undefined), 'Signed out', err.message), 429, {
          'set-cookie': cookie(SESSION_COOKIE, '', k.secure(event), 0),
        })
        if (err.retryAfterSec) res.headers.set('retry-after', String(err.retryAfterSec))
        return res
      }
      return k.page(accountPage(k.ctx(event, s), { credits, error: err.message }), 400)
    }
  })

  return {
    '/account': { GET: accountView },
    '/account/password': { POST: passwordChange },
  }
}
