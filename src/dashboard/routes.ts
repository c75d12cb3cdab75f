/**
 * The dashboard at `/` (docs/decisions.md#accounts-and-the-dashboard): server-rendered pages over the same store, engine and
 * account service the API uses. Every state-changing request is a form POST checked for CSRF and
 * answered with a redirect (post/redirect/get) or the form again with its error.
 */
import type { H3Event } from 'h3'
import { AccountError, SESSION_TTL_MS, type Accounts, type SignedIn } from '../accounts/service.js'
import { ACCOUNT_PATHS } from '../contract/accounts.js'
import { pathFor } from '../contract/routes.js'
import type { ServerOptions } from '../server/context.js'
import type { RateLimiter } from '../server/rate-limit.js'
import { loadAssets } from './assets.js'
import {
  CSRF_COOKIE,
  CsrfError,
  SESSION_COOKIE,
  clientOf,
  cookie,
  htmlResponse,
  isSecure,
  preSessionToken,
  readCookie,
  readForm,
  safeNext,
  seeOther,
  verifyCsrf,
} from './http.js'
import { accountPage, devicePage } from './pages/account.js'
import { allKeysPage, usersPage } from './pages/admin.js'
import { messagePage, signInPage, signUpPage } from './pages/auth.js'
import { checkPage, checksPage, overviewPage, runPage } from './pages/checks.js'
import { toHtml, type Node } from './pages/html.js'
import { keysPage, revokePage } from './pages/keys.js'
import { monitorPage, monitorsPage } from './pages/monitors.js'
import { MonitorRejected } from './monitors-port.js'
import type { PageContext } from './pages/layout.js'
import { RunRefused, runForUser } from './run.js'
import type { FailureBudget } from '../server/failure-budget.js'
import { deriveSecretKey, secretBox } from '../monitors/secrets.js'

type Handler = (event: H3Event) => Promise<Response> | Response
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/
/**
 * A new key's secret travels to the one page view after its redirect in a short-lived cookie,
 * sealed (AES-256-GCM) under a key derived from the admin token every instance shares, and bound
 * to the session: the redirect may land on another instance, and nothing is kept on the server.
 */
const FLASH_COOKIE = 'sh_new_key'
const FLASH_TTL_MS = 5 * 60_000

export function dashboardRoutes(
  opts: ServerOptions,
  accounts: Accounts,
  limiter: RateLimiter,
  inFlight: Set<Promise<unknown>>,
  failures?: FailureBudget,
) {
  const assets = loadAssets()
  const flashBox = secretBox(deriveSecretKey(opts.adminToken, 'dashboard new-key flash v1'))
  const { store } = opts

  const who = (event: H3Event) => accounts.sessionFor(readCookie(event, SESSION_COOKIE))
  const secure = (event: H3Event) => isSecure(event, opts.publicUrl)

  function ctx(event: H3Event, signed: SignedIn | undefined, csrf?: string): PageContext {
    return {
      account: signed?.account,
      csrf: signed?.session.csrf ?? csrf ?? '',
      asset: (n) => assets.url(n),
      path: event.url.pathname,
    }
  }
  const page = (node: Node, status = 200, headers: Record<string, string> | Headers = {}) =>
    htmlResponse(toHtml(node), status, headers)

  /** A signed-out page with its double-submit CSRF cookie. */
  function signedOutPage(event: H3Event, render: (c: PageContext) => Node, status = 200) {
    const pre = preSessionToken(event)
    const headers = new Headers()
    if (pre.setCookie)
      headers.append('set-cookie', cookie(CSRF_COOKIE, pre.setCookie, secure(event), 3600 * 12))
    return page(render(ctx(event, undefined, pre.token)), status, headers)
  }

  function startSession(token: string, next: string, event: H3Event) {
    return seeOther(safeNext(next), [
      cookie(SESSION_COOKIE, token, secure(event), SESSION_TTL_MS / 1000),
      cookie(CSRF_COOKIE, '', secure(event), 0),
    ])
  }

  /** Pages that need a signed-in account; signed out, GETs go to the sign-in page and back. */
  function authed(fn: (event: H3Event, s: SignedIn) => Promise<Response> | Response, admin = false): Handler {
    return async (event) => {
      const s = await who(event)
      if (!s) {
        const next = event.url.pathname + event.url.search
        return seeOther(next === '/' ? '/' : `/?next=${encodeURIComponent(next)}`)
      }
      if (admin && !s.account.admin) return notFound(event, s)
      return fn(event, s)
    }
  }

  /** A form post: CSRF first (before anything else is read or done), then the handler. */
  function post(
    fn: (event: H3Event, form: URLSearchParams, s: SignedIn | undefined) => Promise<Response>,
    opts2: { signedIn?: boolean; admin?: boolean } = { signedIn: true },
  ): Handler {
    return async (event) => {
      const form = await readForm(event)
      const s = await who(event)
      try {
        verifyCsrf(event, form, s, opts.publicUrl)
      } catch (err) {
        if (!(err instanceof CsrfError)) throw err
        return page(
          messagePage(
            ctx(event, s),
            'Request refused',
            'This form was not sent from this dashboard (its security token is missing or stale). Reload the page and try again.',
          ),
          403,
        )
      }
      if (opts2.signedIn !== false && !s) return seeOther('/')
      if (opts2.admin && !s?.account.admin) return notFound(event, s)
      return fn(event, form, s)
    }
  }

  const notFound = (event: H3Event, s: SignedIn | undefined) =>
    page(
      messagePage(ctx(event, s), 'Not found', 'There is nothing here, or it belongs to another account.'),
      404,
    )

  const wrap =
    (h: Handler): Handler =>
    async (event) => {
      try {
        return await h(event)
      } catch (err) {
        opts.log?.(`dashboard error: ${(err as Error)?.stack ?? String(err)}`)
        return page(
          messagePage(
            ctx(event, undefined),
            'Something went wrong',
            'Something went wrong on our side. Please try again in a moment.',
          ),
          500,
        )
      }
    }

  const signupOpen = () => accounts.signup === 'open'

  // ---- handlers ----

  const home: Handler = async (event) => {
    const s = await who(event)
    if (!s) {
      const next = event.url.searchParams.get('next') ?? undefined
      return signedOutPage(event, (c) => signInPage(c, { next, signupOpen: signupOpen() }))
    }
    const { items } = await store.checks.list(s.account.user_id, { limit: 10 })
    return page(
      overviewPage(ctx(event, s), {
        credits: await store.users.availableCredits(s.account.user_id),
        checks: items,
        monitors: opts.dashboardMonitors ? await opts.dashboardMonitors.list(s.account.user_id, 10) : null,
      }),
    )
  }

  const signIn = post(
    async (event, form) => {
      const email = form.get('email') ?? ''
      const next = form.get('next') ?? '/'
      try {
        const r = await accounts.signIn(email, form.get('password') ?? '', clientOf(event))
        return startSession(r.token, next, event)
      } catch (err) {
        if (!(err instanceof AccountError)) throw err
        const status = err.code === 'throttled' ? 429 : 401
        const res = signedOutPage(
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

  const signOut = post(async (_event, _form, s) => {
    if (s) await accounts.signOut(s.session)
    return seeOther('/', [cookie(SESSION_COOKIE, '', secure(_event), 0)])
  })

  const closedMessage = () =>
    accounts.signup === 'invite'
      ? 'Sign-up needs an invite link from an administrator.'
      : 'Sign-up is closed on this server: ask an administrator for an account.'

  const signUpForm: Handler = async (event) => {
    if (!signupOpen())
      return signedOutPage(event, (c) => messagePage(c, 'Sign-up is closed', closedMessage()), 403)
    return signedOutPage(event, (c) => signUpPage(c, { action: '/sign-up' }))
  }
  const signUp = post(
    async (event, form) => {
      const email = form.get('email') ?? ''
      const password = form.get('password') ?? ''
      if (!signupOpen())
        return signedOutPage(event, (c) => messagePage(c, 'Sign-up is closed', closedMessage()), 403)
      try {
        await accounts.signUp(email, password)
        const r = await accounts.signIn(email, password, clientOf(event))
        return startSession(r.token, '/', event)
      } catch (err) {
        if (!(err instanceof AccountError)) throw err
        return signedOutPage(
          event,
          (c) => signUpPage(c, { action: '/sign-up', email, error: err.message }),
          400,
        )
      }
    },
    { signedIn: false },
  )

  const inviteForm: Handler = async (event) => {
    const token = String(event.context.params?.token ?? '')
    const invite = await accounts.findInvite(token)
    if (!invite)
      return signedOutPage(
        event,
        (c) =>
          messagePage(
            c,
            'Link expired',
            'This link is invalid, used or expired: ask an administrator for a new one.',
          ),
        404,
      )
    const action = pathFor(ACCOUNT_PATHS.invitePage, { token })
    return signedOutPage(event, (c) =>
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
  const inviteSubmit = post(
    async (event, form) => {
      const token = String(event.context.params?.token ?? '')
      const invite = await accounts.findInvite(token)
      const email = form.get('email') ?? ''
      const password = form.get('password') ?? ''
      const action = pathFor(ACCOUNT_PATHS.invitePage, { token })
      try {
        const account =
          invite?.kind === 'setup'
            ? await accounts.completeSetup(token, password)
            : await accounts.signUp(email, password, token)
        const r = await accounts.signIn(account.email, password, clientOf(event))
        return startSession(r.token, '/', event)
      } catch (err) {
        if (!(err instanceof AccountError)) throw err
        return signedOutPage(
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

  const checksList = authed(async (event, s) => {
    const cursor = event.url.searchParams.get('cursor') ?? undefined
    const before = cursor && ISO.test(cursor) ? cursor : undefined
    const { items, next } = await store.checks.list(s.account.user_id, { limit: 25, before })
    return page(checksPage(ctx(event, s), { checks: items, next, cursor: before }))
  })

  const checkOne = authed(async (event, s) => {
    const id = String(event.context.params?.id ?? '')
    const c = UUID.test(id) ? await store.checks.get(s.account.user_id, id.toLowerCase()) : undefined
    if (!c) return notFound(event, s)
    return page(checkPage(ctx(event, s), c))
  })

  const runForm = authed(async (event, s) =>
    page(runPage(ctx(event, s), { credits: await store.users.availableCredits(s.account.user_id) })),
  )
  const runSubmit = post(async (event, form, s) => {
    const url = form.get('url') ?? ''
    try {
      const check = await runForUser(opts, limiter, inFlight, s!.account.user_id, url, failures)
      return seeOther(`/checks/${check.id}`)
    } catch (err) {
      if (!(err instanceof RunRefused)) throw err
      return page(
        runPage(ctx(event, s), {
          url,
          error: err.message,
          credits: await store.users.availableCredits(s!.account.user_id),
        }),
        err.status,
      )
    }
  })

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

  const keysView = authed(async (event, s) => {
    const created = openFlash(event, s)
    const headers = new Headers()
    if (readCookie(event, FLASH_COOKIE) !== undefined)
      headers.append('set-cookie', cookie(FLASH_COOKIE, '', secure(event), 0))
    return page(
      keysPage(ctx(event, s), { keys: await accounts.keysOf(s.account.user_id), created }),
      200,
      headers,
    )
  })
  const keyCreate = post(async (event, form, s) => {
    const name = (form.get('name') ?? '').trim()
    if (!name || name.length > 100)
      return page(
        keysPage(ctx(event, s), {
          keys: await accounts.keysOf(s!.account.user_id),
          error: 'Give the key a name of 1 to 100 characters.',
          name,
        }),
        400,
      )
    const { key } = await accounts.createKey(s!.account.user_id, name)
    const sealed = flashBox.seal(
      JSON.stringify({ session: s!.session.id, name, secret: key, until: Date.now() + FLASH_TTL_MS }),
    )
    return seeOther('/keys', [cookie(FLASH_COOKIE, sealed, secure(event), FLASH_TTL_MS / 1000)])
  })

  function revokeRoutes(base: string, admin: boolean) {
    const find = async (event: H3Event, s: SignedIn) => {
      const id = String(event.context.params?.id ?? '')
      return (await store.keys.list()).find((k) => k.id === id && (admin || k.user_id === s.account.user_id))
    }
    return {
      GET: authed(async (event, s) => {
        const key = await find(event, s)
        if (!key) return notFound(event, s)
        return page(revokePage(ctx(event, s), key, `${base}/${key.id}/revoke`, base))
      }, admin),
      POST: post(
        async (event, _form, s) => {
          const key = await find(event, s!)
          if (!key) return notFound(event, s)
          await accounts.revokeKey(admin ? null : s!.account.user_id, key.id)
          return seeOther(base)
        },
        { signedIn: true, admin },
      ),
    }
  }

  const accountView = authed(async (event, s) =>
    page(accountPage(ctx(event, s), { credits: await store.users.availableCredits(s.account.user_id) })),
  )
  const passwordChange = post(async (event, form, s) => {
    const credits = await store.users.availableCredits(s!.account.user_id)
    try {
      await accounts.changePassword(s!, form.get('current') ?? '', form.get('password') ?? '')
      return page(
        accountPage(ctx(event, s), { credits, done: 'Password changed. Other sessions are signed out.' }),
      )
    } catch (err) {
      if (!(err instanceof AccountError)) throw err
      return page(accountPage(ctx(event, s), { credits, error: err.message }), 400)
    }
  })

  const deviceView = authed(async (event, s) => {
    const code = event.url.searchParams.get('code') ?? undefined
    const grant = code ? await accounts.pendingGrant(code) : undefined
    const error =
      code && !grant
        ? 'This code is unknown, expired or already used. Run `sitehealth login` again.'
        : undefined
    return page(devicePage(ctx(event, s), { grant, code, error }), error ? 404 : 200)
  })
  const deviceAnswer = post(async (event, form, s) => {
    const approve = form.get('decision') === 'approve'
    try {
      const g = await accounts.answerDeviceGrant(s!.account, form.get('code') ?? '', approve)
      const done = approve
        ? `Approved: the key “${g.name}” is on its way to your terminal. You can close this page.`
        : 'Denied: no key was made.'
      return page(devicePage(ctx(event, s), { done }))
    } catch (err) {
      if (!(err instanceof AccountError)) throw err
      return page(devicePage(ctx(event, s), { error: err.message }), 400)
    }
  })

  // ---- admin ----
  async function usersView(
    event: H3Event,
    s: SignedIn,
    extra: { link?: { label: string; url: string }; error?: string } = {},
    status = 200,
  ) {
    const list = (await accounts.db.listAccounts()).sort((a, b) => a.created_at.localeCompare(b.created_at))
    const users = await Promise.all(
      list.map(async (account) => ({
        account,
        credits: await store.users.availableCredits(account.user_id),
      })),
    )
    return page(usersPage(ctx(event, s), { users, ...extra }), status)
  }
  const origin = (event: H3Event) => (opts.publicUrl ?? event.url.origin).replace(/\/+$/, '')
  const adminUsers = authed((event, s) => usersView(event, s), true)
  const adminCreateUser = post(
    async (event, form, s) => {
      const credits = form.get('credits') ? Number(form.get('credits')) : null
      if (credits !== null && !(Number.isInteger(credits) && credits >= 0 && credits <= 1e9))
        return usersView(event, s!, { error: 'Credits must be a whole number, 0 or more.' }, 400)
      try {
        const { account, setupToken } = await accounts.createByAdmin(
          form.get('email') ?? '',
          form.get('admin') === '1',
          credits,
        )
        return usersView(event, s!, {
          link: {
            label: `Set-password link for ${account.email}`,
            url: origin(event) + pathFor(ACCOUNT_PATHS.invitePage, { token: setupToken }),
          },
        })
      } catch (err) {
        if (!(err instanceof AccountError)) throw err
        return usersView(event, s!, { error: err.message }, 400)
      }
    },
    { signedIn: true, admin: true },
  )
  const adminInvite = post(
    async (event, form, s) => {
      try {
        const token = await accounts.createInvite({ email: form.get('email') || null })
        return usersView(event, s!, {
          link: { label: 'Invite link', url: origin(event) + pathFor(ACCOUNT_PATHS.invitePage, { token }) },
        })
      } catch (err) {
        if (!(err instanceof AccountError)) throw err
        return usersView(event, s!, { error: err.message }, 400)
      }
    },
    { signedIn: true, admin: true },
  )
  const adminGrant = post(
    async (event, form, s) => {
      const account = await accounts.db.getAccount(String(event.context.params?.id ?? ''))
      if (!account) return notFound(event, s)
      const amount = Number(form.get('amount'))
      if (!(Number.isInteger(amount) && amount >= 1 && amount <= 1e9))
        return usersView(event, s!, { error: 'The amount must be a whole number from 1.' }, 400)
      await store.users.grantCredits(account.user_id, amount)
      return seeOther('/admin/users')
    },
    { signedIn: true, admin: true },
  )
  const adminDisable = post(
    async (event, _form, s) => {
      const account = await accounts.db.getAccount(String(event.context.params?.id ?? ''))
      if (!account) return notFound(event, s)
      if (account.id === s!.account.id)
        return usersView(event, s!, { error: 'You cannot disable your own account.' }, 400)
      await accounts.disable(account.id)
      return seeOther('/admin/users')
    },
    { signedIn: true, admin: true },
  )
  const adminKeys = authed(async (event, s) => {
    const keys = (await store.keys.list()).sort((a, b) => b.created_at.localeCompare(a.created_at))
    const owners = new Map((await accounts.db.listAccounts()).map((a) => [a.user_id, a.email]))
    return page(allKeysPage(ctx(event, s), { keys, owners }))
  }, true)

  const monitors = opts.dashboardMonitors
  const monitorsView = authed(async (event, s) =>
    page(
      monitorsPage(ctx(event, s), { monitors: monitors ? await monitors.list(s.account.user_id, 50) : null }),
    ),
  )
  const monitorCreate = post(async (event, form, s) => {
    if (!monitors) return notFound(event, s)
    const url = (form.get('url') ?? '').trim()
    const name = (form.get('name') ?? '').trim() || undefined
    const interval = Number(form.get('interval_seconds') ?? 300)
    try {
      const m = await monitors.create(s!.account.user_id, { url, name, interval_seconds: interval })
      return seeOther(`/monitors/${m.id}`)
    } catch (err) {
      if (!(err instanceof MonitorRejected)) throw err
      const list = await monitors.list(s!.account.user_id, 50)
      return page(monitorsPage(ctx(event, s), { monitors: list, error: err.message, url, name }), 400)
    }
  })
  const monitorOne = authed(async (event, s) => {
    const id = String(event.context.params?.id ?? '')
    const m = monitors && (await monitors.get(s.account.user_id, id))
    if (!monitors || !m) return notFound(event, s)
    const [runs, events] = await Promise.all([
      monitors.runs(s.account.user_id, m.id, 50),
      monitors.events(s.account.user_id, m.id, 25),
    ])
    return page(monitorPage(ctx(event, s), m, runs, events))
  })
  const monitorPause = (paused: boolean) =>
    post(async (event, _form, s) => {
      const id = String(event.context.params?.id ?? '')
      const m = monitors && (await monitors.setPaused(s!.account.user_id, id, paused))
      if (!m) return notFound(event, s)
      return seeOther(`/monitors/${m.id}`)
    })

  const asset: Handler = (event) => {
    const res = assets.serve(String(event.context.params?.file ?? ''))
    return res ?? notFound(event, undefined)
  }

  const table: Record<string, Partial<Record<string, Handler>>> = {
    '/': { GET: home },
    '/sign-in': { POST: signIn, GET: () => seeOther('/') },
    '/sign-out': { POST: signOut },
    '/sign-up': { GET: signUpForm, POST: signUp },
    [ACCOUNT_PATHS.invitePage]: { GET: inviteForm, POST: inviteSubmit },
    '/checks': { GET: checksList },
    '/checks/:id': { GET: checkOne },
    '/run': { GET: runForm, POST: runSubmit },
    '/monitors': { GET: monitorsView, POST: monitorCreate },
    '/monitors/:id': { GET: monitorOne },
    '/monitors/:id/pause': { POST: monitorPause(true) },
    '/monitors/:id/resume': { POST: monitorPause(false) },
    '/keys': { GET: keysView, POST: keyCreate },
    '/keys/:id/revoke': revokeRoutes('/keys', false),
    '/account': { GET: accountView },
    '/account/password': { POST: passwordChange },
    [ACCOUNT_PATHS.devicePage]: { GET: deviceView, POST: deviceAnswer },
    '/admin/users': { GET: adminUsers, POST: adminCreateUser },
    '/admin/invites': { POST: adminInvite },
    '/admin/users/:id/credits': { POST: adminGrant },
    '/admin/users/:id/disable': { POST: adminDisable },
    '/admin/keys': { GET: adminKeys },
    '/admin/keys/:id/revoke': revokeRoutes('/admin/keys', true),
    '/assets/:file': { GET: asset },
  }
  for (const methods of Object.values(table))
    for (const m of Object.keys(methods)) methods[m] = wrap(methods[m]!)
  return table
}
