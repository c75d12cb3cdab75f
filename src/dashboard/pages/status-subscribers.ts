/**
 * The subscribers of a status page on its screen: how many (confirmed email addresses, webhooks),
 * one page of them as the API lists them (webhook URLs masked), a remove button each.
 */
import type { StatusPage, Subscriber } from '../../contract/status-pages.js'
import { CsrfField, type PageContext } from './layout.js'
import { fmtDate, html } from './html.js'

/** Subscribers shown at once. */
export const SUBSCRIBERS_PER_PAGE = 20

export interface SubscriberScreen {
  /** This page of them, oldest first. */
  subscribers: Subscriber[]
  email: number
  webhooks: number
  /** 1-based. */
  page: number
  pages: number
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
const counts = (s: SubscriberScreen) =>
  `${plural(s.email, 'email address', 'email addresses')} (confirmed), ${plural(s.webhooks, 'webhook', 'webhooks')}.`

function Pager({ page, s }: { page: StatusPage; s: SubscriberScreen }) {
  if (s.pages <= 1) return null
  const at = (n: number) => `/status-pages/${page.id}?subscribers=${n}#subscribers`
  return html`<nav class="pager" aria-label="Subscriber pages">
    ${s.page > 1 ? html`<a href=${at(s.page - 1)}>Previous subscribers</a>` : null}
    <span class="muted">Page ${s.page} of ${s.pages}</span>
    ${s.page < s.pages ? html`<a href=${at(s.page + 1)}>Next subscribers</a>` : null}
  </nav>`
}

export function SubscribersSection({
  ctx,
  page,
  s,
}: {
  ctx: PageContext
  page: StatusPage
  s: SubscriberScreen | null
}) {
  const head = html`<h2 id="subscribers">Subscribers</h2>`
  if (s === null)
    return html`<section aria-labelledby="subscribers">
      ${head}
      <p>Subscriptions are not available on this server.</p>
    </section>`
  return html`<section aria-labelledby="subscribers">
    ${head}
    <p>${counts(s)} They hear of published incidents, their updates and maintenance on its monitors.</p>
    ${
      s.subscribers.length === 0
        ? html`<p class="muted">No subscribers yet: visitors subscribe on the public page.</p>`
        : html`<div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  <th scope="col">Address</th>
                  <th scope="col">Since</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                ${s.subscribers.map(
                  (x) =>
                    html`<tr>
                      <td>${x.type === 'email' ? 'Email' : 'Webhook'}</td>
                      <td class="url">${x.target}</td>
                      <td class="when">${fmtDate(x.created_at)}</td>
                      <td>
                        <form
                          class="inline"
                          method="post"
                          action=${`/status-pages/${page.id}/subscribers/${x.id}/delete`}
                        >
                          <${CsrfField} token=${ctx.csrf} />
                          <button type="submit" class="secondary" aria-label=${`Remove ${x.target}`}>
                            Remove
                          </button>
                        </form>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          <${Pager} page=${page} s=${s} />`
    }
  </section>`
}
