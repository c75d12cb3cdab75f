/** Invite and set-password links: the form, and signing up (or setting the password) through it. */
import { DomainError } from '../../shared/index.js'
import { INVALID_LINK } from '../../accounts/index.js'
import { ACCOUNT_PATHS } from '../../contract/accounts.js'
import { pathFor } from '../../contract/routes.js'
import { clientOf, seeOther } from '../http.js'
import { field, param, type Handler, type Kit, type Routes } from '../kit.js'
import { messagePage, signUpPage } from '../pages/auth.js'

export function inviteRoutes(k: Kit): Routes {
  const { accounts } = k.deps

  const inviteForm: Handler = async (event) => {
    const token = param(event, 'token')
    const invite = await accounts.invites.find(token)
    if (!invite) return k.signedOutPage(event, (c) => messagePage(c, 'Link expired', INVALID_LINK), 404)
    const action = pathFor(ACCOUNT_PATHS.invitePage, { token })
    return k.signedOutPage(event, (c) =>
      invite.kind === 'setup'
        ? signUpPage(c, {
            action,
            fixedEmail: invite.email,
            title: 'Set your password',
            button: 'Set password',
          })
        : signUpPage(c, { action, fixedEmail: invite.email }),
    )
  }
  const inviteSubmit = k.post(
    async (event, form) => {
      const token = param(event, 'token')
      const invite = await accounts.invites.find(token)
      const email = field(form, 'email')
      const password = field(form, 'password')
      const action = pathFor(ACCOUNT_PATHS.invitePage, { token })
      try {
        if (invite?.kind !== 'setup') {
          // as open sign-up: the same answer whether or not the email had an account
          await accounts.registration.signUp(email, password, token)
          return seeOther('/?signed-up')
        }
        const account = await accounts.invites.completeSetup(token, password)
        const r = await accounts.sessions.signIn(account.email, password, clientOf(event))
        return k.startSession(r.token, '/', event)
      } catch (err) {
        if (!(err instanceof DomainError)) throw err
        return k.signedOutPage(
          event,
          (c) =>
            signUpPage(c, {
              action,
              email,
              error: err.message,
              fixedEmail: invite?.email,
              ...(invite?.kind === 'setup' ? { title: 'Set your password', button: 'Set password' } : {}),
            }),
          400,
        )
      }
    },
    { signedIn: false },
  )

  return { [ACCOUNT_PATHS.invitePage]: { GET: inviteForm, POST: inviteSubmit } }
}
