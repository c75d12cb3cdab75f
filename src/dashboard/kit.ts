/**
 * The dashboard's route kit: who is signed in, page rendering, the signed-in and form-post guards
 * (CSRF first), typed form fields and route params. Every area's routes are built on it.
 */
import type { H3Event } from 'h3'
import { SESSION_TTL_MS, type Accounts, type SignedIn } from '../accounts/index.js'
import type { FailureBudget } from '../runs/index.js'
import type { ServerOptions } from '../server/context.js'
import type { RateLimiter } from '../http/rate-limit.js'
import { loadAssets, type Assets } from './assets.js'
import {
  CSRF_COOKIE,
  CsrfError,
  SESSION_COOKIE,
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
import type { MonitorService } from '../monitors/index.js'
import { DomainError } from '../shared/index.js'
import type { StatusPages } from '../status-pages/index.js'
import { messagePage } from './pages/auth.js'
import { toHtml, type Node } from './pages/html.js'
import type { PageContext } from './pages/layout.js'

export type Handler = (event: H3Event) => Promise<Response> | Response
export type Routes = Record<string, Partial<Record<string, Handler>>>

/** What the dashboard is given by the composition root (src/serve). */
export interface DashboardDeps {
  opts: ServerOptions
  accounts: Accounts
  /** The monitor service the API's routes call (maintenance windows included), when the server runs monitors. */
  monitors?: MonitorService
  /** The status-page services the API's routes call: pages, their incidents, their subscribers. */
  statusPages?: StatusPages
  limiter: RateLimiter
  inFlight: Set<Promise<unknown>>
  failures?: FailureBudget
}

/** Who may send a form: signed in (the default), anyone (sign-in, sign-up), or admins only. */
export interface PostAccess {
  signedIn?: boolean
  admin?: boolean
}

/** A route param (`/checks/:id`) as a string, '' when absent. */
export function param(event: H3Event, name: string): string {
  return String(event.context.params?.[name] ?? '')
}

/** A form field as a string, '' when absent. */
export function field(form: URLSearchParams, name: string): string {
  return form.get(name) ?? ''
}

/** After sign-up, whatever happened: it must not tell whether the email already had an account. */
export const SIGNED_UP_NOTICE =
  'Thank you. If this email is new here, its account is ready: sign in with the password you just chose. If it already had an account, sign in with that account’s password.'

export type Kit = ReturnType<typeof createKit>

const page = (node: Node, status = 200, headers: Record<string, string> | Headers = {}) =>
  htmlResponse(toHtml(node), status, headers)

/**
 * A service's refusal (shared/domain-error.ts) as the sentence a page shows, for every form at
 * once: an input document's refusal starts with the field at fault (`ends_at: …`), any other is
 * its message. Anything that is not a refusal is thrown on (the 500 page).
 */
export function refusal(err: unknown): string {
  if (!(err instanceof DomainError)) throw err
  return err.subject ? `${err.field ?? err.subject}: ${err.message}` : err.message
}

/**
 * A refused create's page status and headers (monitors/quota.ts): 409 past the account's monitor
 * cap, 429 with Retry-After past its create rate, else 400.
 */
export function refusalStatus(err: unknown): [number, Record<string, string>] {
  if (!(err instanceof DomainError)) return [400, {}]
  const wait: Record<string, string> =
    err.retryAfterSec === undefined ? {} : { 'retry-after': String(err.retryAfterSec) }
  return [err.kind === 'conflict' ? 409 : err.kind === 'rate_limited' ? 429 : 400, wait]
}

/** What a service read or changed, or undefined where it answered not_found (another user's record too). */
export async function unlessMissing<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return undefined
    throw err
  }
}

const CSRF_REFUSED =
  'This form was not sent from this dashboard (its security token is missing or stale). Reload the page and try again.'

export function createKit(deps: DashboardDeps) {
  const { opts, accounts } = deps
  const assets: Assets = loadAssets()

  const who = (event: H3Event) => accounts.sessions.of(readCookie(event, SESSION_COOKIE))
  const secure = (event: H3Event) => isSecure(event, opts.publicUrl)

  function ctx(event: H3Event, signed: SignedIn | undefined, csrf?: string): PageContext {
    return {
      account: signed?.account,
      csrf: signed?.session.csrf ?? csrf ?? '',
      asset: (n) => assets.url(n),
      path: event.url.pathname,
    }
  }
  /** A signed-out page with its double-submit CSRF cookie. */
  function signedOutPage(event: H3Event, render: (c: PageContext) => Node, status = 200) {
    const pre = preSessionToken(event)
    const headers = new Headers()
    if (pre.setCookie)
      headers.append('set-cookie', cookie(CSRF_COOKIE, pre.setCookie, secure(event), 3600 * 12))
    return page(render(ctx(event, undefined, pre.token)), status, headers)
  }

  function startSession(token: string, next: string, event: H3Event) {
    return seeOther(safeNext(next, opts.publicUrl ?? event.url.origin), [
      cookie(SESSION_COOKIE, token, secure(event), SESSION_TTL_MS / 1000),
      cookie(CSRF_COOKIE, '', secure(event), 0),
    ])
  }

  const notFound = (event: H3Event, s: SignedIn | undefined) =>
    page(
      messagePage(ctx(event, s), 'Not found', 'There is nothing here, or it belongs to another account.'),
      404,
    )

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
    access: PostAccess = { signedIn: true },
  ): Handler {
    return async (event) => {
      const form = await readForm(event)
      const s = await who(event)
      try {
        verifyCsrf(event, form, s, opts.publicUrl)
      } catch (err) {
        if (!(err instanceof CsrfError)) throw err
        return page(messagePage(ctx(event, s), 'Request refused', CSRF_REFUSED), 403)
      }
      if (access.signedIn !== false && !s) return seeOther('/')
      if (access.admin && !s?.account.admin) return notFound(event, s)
      return fn(event, form, s)
    }
  }

  /** A signed-in form post: the handler gets the session for sure. */
  function signedPost(
    fn: (event: H3Event, form: URLSearchParams, s: SignedIn) => Promise<Response>,
    access: { admin?: boolean } = {},
  ): Handler {
    return post((event, form, s) => fn(event, form, s!), { signedIn: true, admin: access.admin })
  }

  /**
   * A refusal no form caught becomes a page (not found: the 404 page; else its sentence, 400); any
   * other failure the dashboard's own 500 page (the cause goes to the log).
   */
  const wrap =
    (h: Handler): Handler =>
    async (event) => {
      try {
        return await h(event)
      } catch (err) {
        if (err instanceof DomainError && err.kind === 'not_found') return notFound(event, undefined)
        if (err instanceof DomainError)
          return page(messagePage(ctx(event, undefined), 'Refused', refusal(err)), 400)
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

  return {
    deps,
    assets,
    who,
    secure,
    ctx,
    page,
    signedOutPage,
    startSession,
    notFound,
    authed,
    post,
    signedPost,
    wrap,
  }
}
