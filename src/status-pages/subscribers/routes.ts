/**
 * The subscriber routes (docs/status-pages.md). Public, no sign-in: `POST /status/{slug}/subscribers`
 * (JSON `{email}` or `{webhook_url}`, or the page's HTML forms), and the links a subscriber
 * follows, `…/subscribers/confirm` and `…/subscribers/unsubscribe`: a GET only checks the link and
 * shows a button, the POST it sends acts, so a mail scanner that fetches links neither confirms nor
 * unsubscribes anyone; RFC 8058's one-click POST (`List-Unsubscribe=One-Click`) acts at once. Subscribing is throttled per client, per
 * page and per address; past the address's limit the answer stays the same and no mail goes, so
 * nobody learns whether an address is subscribed or was asked for. The owner's side, with a key:
 * `GET /api/public/v1/status-pages/{id}/subscribers` and `DELETE …/subscribers/{subscriber}`.
 */
import type { H3Event } from 'h3'
import { STATUS_PAGE_PATHS, SubscribeRequest, type SubscriberList } from '../../contract/status-pages.js'
import { parseWith, readCapped, readJson } from '../../http/body.js'
import { clientAddress } from '../../http/client-address.js'
import { ServiceError, badRequest, notFound } from '../../http/errors.js'
import type { Policy, RateLimiter } from '../../http/rate-limit.js'
import type { StatusPageRecord } from '../../store/status-pages.js'
import type { ApiKit } from '../api-routes.js'
import { DomainError } from '../../shared/index.js'
import { STATUS_CSP } from '../style.js'
import { LINK_PROBLEM_TEXT, renderNoticePage, type NoticePage } from './pages.js'
import type { SubscriberService } from './service.js'

/** The throttles of subscribing (docs/status-pages.md). */
export const SUBSCRIBE_POLICIES = {
  client: { name: 'subscribe-client', limit: 20, windowMs: 3_600_000 },
  page: { name: 'subscribe-page', limit: 200, windowMs: 3_600_000 },
  address: { name: 'subscribe-address', limit: 3, windowMs: 3_600_000 },
} satisfies Record<string, Policy>

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': STATUS_CSP,
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
}

const html = (p: NoticePage) => new Response(renderNoticePage(p), { status: p.status, headers: HEADERS })

/** A form body's fields (the page's forms, and RFC 8058's one-click POST). */
async function readForm(event: H3Event): Promise<URLSearchParams> {
  const bytes = await readCapped(event.req.body, 16 * 1024)
  if (bytes === 'too_large') throw badRequest('The request body is larger than 16 KiB.')
  return new URLSearchParams(bytes?.toString('utf8') ?? '')
}

/** The page of the path's slug, or undefined. */
async function pageOf(subs: SubscriberService, event: H3Event): Promise<StatusPageRecord | undefined> {
  return subs.pageBySlug(String(event.context.params?.slug ?? '')).catch((err: unknown) => {
    if (err instanceof DomainError) return undefined
    throw err
  })
}

const missing = () =>
  html({ status: 404, title: 'Status page not found', lines: ['There is no status page at this address.'] })

/** A followed link: the token from the query, or from a form body. */
function linkRoute(subs: SubscriberService, kind: 'confirm' | 'unsubscribe') {
  return async (event: H3Event): Promise<Response> => {
    const page = await pageOf(subs, event)
    if (!page) return missing()
    let token = event.url.searchParams.get('token') ?? ''
    if (!token && event.req.method === 'POST') token = (await readForm(event)).get('token') ?? ''
    const back = { href: subs.links(page).page, text: `Back to ${page.title}` }
    const act = event.req.method === 'POST'
    const result = !act
      ? subs.check(page, token, kind)
      : kind === 'confirm'
        ? await subs.confirm(page, token)
        : await subs.unsubscribe(page, token)
    if (result !== 'ok')
      return html({
        status: result === 'expired' ? 410 : 400,
        title: result === 'expired' ? 'Link expired' : 'Link not valid',
        lines: [LINK_PROBLEM_TEXT[result]],
        back,
      })
    if (!act)
      return kind === 'confirm'
        ? html({
            status: 200,
            title: 'Confirm your subscription',
            lines: [`Press the button to hear of incidents and maintenance on ${page.title}.`],
            form: { token, button: 'Confirm subscription' },
            back,
          })
        : html({
            status: 200,
            title: 'Unsubscribe',
            lines: [`Press the button to get no more mail from ${page.title}.`],
            form: { token, button: 'Unsubscribe' },
            back,
          })
    return kind === 'confirm'
      ? html({
          status: 200,
          title: 'Subscription confirmed',
          lines: [
            `You will hear of incidents and maintenance on ${page.title}. Every mail has a link to unsubscribe.`,
          ],
          back,
        })
      : html({
          status: 200,
          title: 'Unsubscribed',
          lines: [`You will get no more mail from ${page.title}.`],
          back,
        })
  }
}

export function subscriberRoutes(k: ApiKit, limiter: RateLimiter, subs: SubscriberService) {
  const { guard, param, pageId } = k

  async function throttle(key: string, policy: Policy): Promise<void> {
    const d = await limiter.hit(key, policy)
    if (!d.allowed)
      throw new ServiceError(
        429,
        'rate_limited',
        `Too many subscription requests: try again in ${d.resetSec} s.`,
        d.headers,
      )
  }

  async function subscribe(event: H3Event): Promise<Response> {
    const asForm = FORM_TYPE.test(event.req.headers.get('content-type') ?? '')
    const page = await pageOf(subs, event)
    if (!page) {
      if (asForm) return missing()
      throw notFound('No status page at this address.')
    }
    const back = { href: subs.links(page).page, text: `Back to ${page.title}` }
    let raw: unknown
    if (asForm) {
      const f = await readForm(event)
      raw = f.has('webhook_url') ? { webhook_url: f.get('webhook_url') } : { email: f.get('email') ?? '' }
    } else raw = await readJson(event)
    let input
    try {
      input = parseWith(SubscribeRequest, raw, 'subscription')
    } catch (err) {
      if (!asForm) throw err
      return html({ status: 400, title: 'Not subscribed', lines: [(err as Error).message], back })
    }
    await throttle(`c:${clientAddress(event)}`, SUBSCRIBE_POLICIES.client)
    await throttle(`p:${page.id}`, SUBSCRIBE_POLICIES.page)
    const quiet =
      'email' in input &&
      !(await limiter.hit(`a:${input.email.trim().toLowerCase()}`, SUBSCRIBE_POLICIES.address)).allowed
    let out
    try {
      out = await subs.subscribe(page, input, quiet)
    } catch (err) {
      if (!asForm) throw err
      return html({ status: 400, title: 'Not subscribed', lines: [(err as Error).message], back })
    }
    if (!asForm)
      return new Response(JSON.stringify(out), {
        status: out.subscriber ? 201 : 202,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      })
    if (!out.subscriber) return html({ status: 200, title: 'Check your inbox', lines: [out.message], back })
    return html({
      status: 201,
      title: 'Webhook subscribed',
      lines: [out.message, 'Keep the secret now: it is not shown again.'],
      code: [
        { label: 'Signing secret (X-Sitehealth-Signature)', value: out.subscriber.secret },
        { label: 'Unsubscribe link', value: out.subscriber.unsubscribe_url },
      ],
      back,
    })
  }

  const subscriberId = (event: H3Event) => param(event, 'subscriber', 'subscriber')
  return {
    [STATUS_PAGE_PATHS.subscribe]: { POST: subscribe },
    [STATUS_PAGE_PATHS.confirm]: { GET: linkRoute(subs, 'confirm'), POST: linkRoute(subs, 'confirm') },
    [STATUS_PAGE_PATHS.unsubscribe]: {
      GET: linkRoute(subs, 'unsubscribe'),
      POST: linkRoute(subs, 'unsubscribe'),
    },
    [STATUS_PAGE_PATHS.subscribers]: {
      GET: async (event: H3Event): Promise<SubscriberList> => {
        const key = await guard(event, 'api')
        const id = pageId(event)
        return subs.list(key.user_id, id)
      },
    },
    [STATUS_PAGE_PATHS.subscriber]: {
      DELETE: async (event: H3Event): Promise<Response> => {
        const key = await guard(event, 'api')
        const [id, sid] = [pageId(event), subscriberId(event)]
        await subs.remove(key.user_id, id, sid)
        return new Response(null, { status: 204 })
      },
    },
  }
}
