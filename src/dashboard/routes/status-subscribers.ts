/**
 * A status page's subscribers on its screen (the subscriber service the API calls): one page of
 * them with their count, and the remove button's POST.
 */
import type { H3Event } from 'h3'
import { isUuid } from '../../shared/index.js'
import type { SubscriberService } from '../../status-pages/index.js'
import { seeOther } from '../http.js'
import { param, unlessMissing, type Kit, type Routes } from '../kit.js'
import { SUBSCRIBERS_PER_PAGE, type SubscriberScreen } from '../pages/status-subscribers.js'

/** The `?subscribers=N` page asked for, 1 when none or not a number. */
const pageNumber = (event: H3Event) => {
  const n = Number(event.url.searchParams.get('subscribers'))
  return Number.isSafeInteger(n) && n >= 1 ? n : 1
}

/** The page's subscribers as its screen shows them; null without subscriptions on this server. */
export async function subscriberScreen(
  subs: SubscriberService | undefined,
  userId: string,
  pageId: string,
  event: H3Event,
): Promise<SubscriberScreen | null> {
  if (!subs) return null
  const { subscribers } = await subs.list(userId, pageId)
  const email = subscribers.filter((x) => x.type === 'email').length
  const pages = Math.max(1, Math.ceil(subscribers.length / SUBSCRIBERS_PER_PAGE))
  const page = Math.min(pageNumber(event), pages)
  const from = (page - 1) * SUBSCRIBERS_PER_PAGE
  return {
    subscribers: subscribers.slice(from, from + SUBSCRIBERS_PER_PAGE),
    email,
    webhooks: subscribers.length - email,
    page,
    pages,
  }
}

export function statusSubscriberRoutes(k: Kit): Routes {
  const parts = k.deps.statusPages
  const remove = k.signedPost(async (event, _form, s) => {
    const subs = parts?.subscribers?.service
    const [id, sid] = [param(event, 'id'), param(event, 'sid')]
    if (!parts || !subs || !isUuid(id)) return k.notFound(event, s)
    const page = await unlessMissing(parts.service.get(s.account.user_id, id))
    if (!page) return k.notFound(event, s)
    // removed already (a second click): back to the list all the same
    if (isUuid(sid)) await unlessMissing(subs.remove(s.account.user_id, page.id, sid))
    return seeOther(`/status-pages/${page.id}#subscribers`)
  })
  return { '/status-pages/:id/subscribers/:sid/delete': { POST: remove } }
}
