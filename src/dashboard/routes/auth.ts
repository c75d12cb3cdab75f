/** Signing in and out, signing up. */
import { DomainError } from '../../shared/index.js'
import { clientOf, cookie, SESSION_COOKIE, seeOther } from '../http.js'
import { field, type Handler, type Kit, type Routes } from '../kit.js'
import { messagePage, signInPage, signUpPage } from '../pages/auth.js'

export function authRoutes(k: Kit): Routes {
  const { accounts } = k.deps
  const signupOpen = () => accounts.signup === 'open'
  const closedMessage = () =>
    accounts.signup === 'invite'
      ? 'Sign-up needs an invite link from an administrator.'
      : 'Sign-up is closed on this server: ask an administrator for an account.'

  const signIn = k.post(
    async (event, form) => {
      const email = field(form, 'email')
      const next = form.get('next') ?? '/'
      try {
        const r = await accounts.sessions.signIn(email, field(form, 'password'), clientOf(event))
        return k.startSession(r.token, next, event)
      } catch (err) {
        if (!(err instanceof DomainError)) throw err
        const status = err.code === 'throttled' ? 429 : 401
        const res = k.signedOutPage(
          event,
          (c) => signInPage(c, { email, error: err.message, next, signupOpen: signupOpen() }),
          status,
        )
        if (err.retryAfterSec) res.headers.set('retry-after', String(err.retryAfterSec))
        return res
      }
    },
    { signedIn: false },
  )

  const signOut = k.post(async (event, _form, s) => {
    if (s) await accounts.sessions.signOut(s.session)
    return seeOther('/', [cookie(SESSION_COOKIE, '', k.secure(event), 0)])
  })

  const signUpForm: Handler = async (event) => {
    if (!signupOpen())
      return k.signedOutPage(event, (c) => messagePage(c, 'Sign-up is closed', closedMessage()), 403)
    return k.signedOutPage(event, (c) => signUpPage(c, { action: '/sign-up' }))
  }
  const signUp = k.post(
    async (event, form) => {
      const email = field(form, 'email')
      const password = field(form, 'password')
      if (!signupOpen())
        return k.signedOutPage(event, (c) => messagePage(c, 'Sign-up is closed', closedMessage()), 403)
      try {
        // the same answer whether or not the email had an account (no enumeration)
        await accounts.registration.signUp(email, password)
        return seeOther('/?signed-up')
      } catch (err) {
        if (!(err instanceof DomainError)) throw err
        return k.signedOutPage(
          event,
          (c) => signUpPage(c, { action: '/sign-up', email, error: err.message }),
          400,
        )
      }
    },
    { signedIn: false },
  )

  return {
    '/sign-in': { POST: signIn, GET: () => seeOther('/') },
    '/sign-out': { POST: signOut },
    '/sign-up': { GET: signUpForm, POST: signUp },
  }
}
