/** The overview at `/` (or the sign-in page), the saved checks, and running a check. */
import { listItems } from '../monitors.js'
import { isUuid } from '../../shared/index.js'
import { seeOther } from '../http.js'
import { field, param, SIGNED_UP_NOTICE, type Handler, type Kit, type Routes } from '../kit.js'
import { signInPage } from '../pages/auth.js'
import { checkPage, checksPage, overviewPage, runPage } from '../pages/checks.js'
import { RunRefused, runForUser } from '../run.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/

export function homeRoute(k: Kit): Routes {
  const { opts, accounts, monitors } = k.deps
  const { store } = opts
  const home: Handler = async (event) => {
    const s = await k.who(event)
    if (!s) {
      const next = event.url.searchParams.get('next') ?? undefined
      const notice = event.url.searchParams.has('signed-up') ? SIGNED_UP_NOTICE : undefined
      return k.signedOutPage(event, (c) =>
        signInPage(c, { next, notice, signupOpen: accounts.signup === 'open' }),
      )
    }
    const { items } = await store.checks.list(s.account.user_id, { limit: 10 })
    return k.page(
      overviewPage(k.ctx(event, s), {
        credits: await store.users.availableCredits(s.account.user_id),
        checks: items,
        monitors: monitors ? await listItems(monitors, s.account.user_id, 10) : null,
      }),
    )
  }
  return { '/': { GET: home } }
}

export function checkRoutes(k: Kit): Routes {
  const { opts, limiter, inFlight, failures } = k.deps
  const { store } = opts

  const checksList = k.authed(async (event, s) => {
    const cursor = event.url.searchParams.get('cursor') ?? undefined
    const before = cursor && ISO.test(cursor) ? cursor : undefined
    const { items, next } = await store.checks.list(s.account.user_id, { limit: 25, before })
    return k.page(checksPage(k.ctx(event, s), { checks: items, next, cursor: before }))
  })

  const checkOne = k.authed(async (event, s) => {
    const id = param(event, 'id')
    const c = isUuid(id) ? await store.checks.get(s.account.user_id, id.toLowerCase()) : undefined
    if (!c) return k.notFound(event, s)
    return k.page(checkPage(k.ctx(event, s), c))
  })

  const runForm = k.authed(async (event, s) =>
    k.page(runPage(k.ctx(event, s), { credits: await store.users.availableCredits(s.account.user_id) })),
  )
  const runSubmit = k.signedPost(async (event, form, s) => {
    const url = field(form, 'url')
    try {
      const check = await runForUser(opts, limiter, inFlight, s.account.user_id, url, failures)
      return seeOther(`/checks/${check.id}`)
    } catch (err) {
      if (!(err instanceof RunRefused)) throw err
      return k.page(
        runPage(k.ctx(event, s), {
          url,
          error: err.message,
          credits: await store.users.availableCredits(s.account.user_id),
        }),
        err.status,
      )
    }
  })

  return {
    '/checks': { GET: checksList },
    '/checks/:id': { GET: checkOne },
    '/run': { GET: runForm, POST: runSubmit },
  }
}
