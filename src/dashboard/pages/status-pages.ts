/** Status pages: the list with a create form, one page's edit form, and the delete confirmation. */
import type { StatusIncident, StatusPage } from '../../contract/status-pages.js'
import type { MonitorView } from '../views.js'
import type { StatusPageInput } from '../status-pages.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { html } from './html.js'
import { IncidentsSection } from './status-incidents.js'
import { SubscribersSection, type SubscriberScreen } from './status-subscribers.js'

export interface StatusPageForm {
  /** The user's monitors to choose from. */
  monitors: MonitorView[]
  /** What the form shows: the page being edited, or what was sent with an error. */
  values?: Partial<StatusPageInput>
  error?: string
}

function fields(ctx: PageContext, f: StatusPageForm, submit: string, action: string) {
  const v = f.values ?? {}
  const chosen = new Set(v.monitor_ids ?? [])
  return html`<${ErrorText} message=${f.error} />
    <form class="stack" method="post" action=${action}>
      <${CsrfField} token=${ctx.csrf} />
      <label
        >Slug
        <input
          type="text"
          name="slug"
          required
          pattern="[a-z0-9][a-z0-9\\-]{1,62}"
          aria-describedby="slug-help"
          value=${v.slug ?? ''}
      /></label>
      <p class="muted" id="slug-help">
        Lowercase letters, digits and hyphens; the page's address is /status/<em>slug</em>.
      </p>
      <label>Title <input type="text" name="title" required maxlength="100" value=${v.title ?? ''} /></label>
      <label
        >Description
        <input type="text" name="description" maxlength="500" placeholder="optional" value=${v.description ?? ''}
      /></label>
      <fieldset>
        <legend>Monitors shown</legend>
        ${
          f.monitors.length === 0
            ? html`<p>You have no monitors yet: <a href="/monitors">create one</a> first.</p>`
            : f.monitors.map(
                (m) =>
                  html`<label class="check"
                    ><input type="checkbox" name="monitor_ids" value=${m.id} checked=${chosen.has(m.id)} />
                    ${m.name}</label
                  >`,
              )
        }
      </fieldset>
      <label class="check"
        ><input type="checkbox" name="show_urls" value="1" checked=${!!v.show_urls} /> Show each monitor's URL
        on the public page</label
      >
      <label class="check"
        ><input type="checkbox" name="auto_incidents" value="1" checked=${!!v.auto_incidents} /> Open a draft
        incident when one of these monitors goes down</label
      >
      <button type="submit">${submit}</button>
    </form>`
}

export function statusPagesPage(ctx: PageContext, o: { pages: StatusPage[] | null } & StatusPageForm) {
  if (o.pages === null)
    return Page(
      ctx,
      'Status pages',
      html`<h1>Status pages</h1>
        <p>Status pages are not available on this server.</p>`,
    )
  return Page(
    ctx,
    'Status pages',
    html`<h1>Status pages</h1>
      <p>A status page shows the state and daily uptime of the monitors you choose to anyone with its address, with no sign-in.</p>
      <h2>Your status pages</h2>
      ${
        o.pages.length === 0
          ? html`<p>No status pages yet.</p>`
          : html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Title</th>
                    <th scope="col">Public address</th>
                    <th scope="col">Monitors</th>
                  </tr>
                </thead>
                <tbody>
                  ${o.pages.map(
                    (p) =>
                      html`<tr>
                        <td><a href=${`/status-pages/${p.id}`}>${p.title}</a></td>
                        <td class="url"><a href=${p.public_url}>${p.public_url}</a></td>
                        <td>${p.monitor_ids.length}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <h2>Create a status page</h2>
      ${fields(ctx, o, 'Create status page', '/status-pages')}`,
  )
}

/** What a page's screen shows below its form: its incidents and subscribers (null: not on this server). */
export interface StatusPageParts {
  incidents: StatusIncident[] | null
  subscribers: SubscriberScreen | null
}

export function statusPageEditPage(
  ctx: PageContext,
  page: StatusPage,
  f: StatusPageForm,
  parts: StatusPageParts,
) {
  return Page(
    ctx,
    page.title,
    html`<h1>${page.title}</h1>
      <p>Public address: <a href=${page.public_url}>${page.public_url}</a></p>
      ${parts.incidents && html`<${IncidentsSection} page=${page} incidents=${parts.incidents} />`}
      <${SubscribersSection} ctx=${ctx} page=${page} s=${parts.subscribers} />
      <h2>Edit</h2>
      ${fields(ctx, { ...f, values: f.values ?? { ...page, description: page.description ?? '' } }, 'Save changes', `/status-pages/${page.id}`)}
      <h2>Delete</h2>
      <p><a class="button danger" href=${`/status-pages/${page.id}/delete`}>Delete this status page</a></p>`,
  )
}

export function statusPageDeletePage(ctx: PageContext, page: StatusPage) {
  return Page(
    ctx,
    'Delete status page',
    html`<h1>Delete the status page “${page.title}”?</h1>
      <p>${page.public_url} stops answering at once (its badges too). Your monitors are not touched. This cannot be undone.</p>
      <form class="row" method="post" action=${`/status-pages/${page.id}/delete`}>
        <${CsrfField} token=${ctx.csrf} />
        <button type="submit" class="danger">Delete</button>
        <a class="button secondary" href=${`/status-pages/${page.id}`}>Cancel</a>
      </form>`,
  )
}
