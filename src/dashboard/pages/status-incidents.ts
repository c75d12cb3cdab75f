/**
 * The incidents of a status page: the list on the page's screen (open first, drafts marked), the
 * form that posts one, an incident's screen (its updates, the update form, its edit form, publish
 * or discard a draft), and the delete confirmation. Plain forms, no JavaScript.
 */
import {
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  type StatusIncident,
  type StatusPage,
} from '../../contract/status-pages.js'
import { IMPACT_TEXT, INCIDENT_STATUS_TEXT } from '../../status-pages/index.js'
import type { IncidentEditInput, IncidentInput, IncidentUpdateInput } from '../status-incidents.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { fmtDate, html } from './html.js'

/** A monitor of the page, to tick as affected. */
export interface PageMonitor {
  id: string
  name: string
}

/** A form's values and the refusal that sent it back. */
export interface Sent<I> {
  values?: Partial<I>
  error?: string
}

const incidentPath = (page: StatusPage, i: StatusIncident) => `/status-pages/${page.id}/incidents/${i.id}`

/** Open incidents first, each group newest first (as the store lists them). */
const openFirst = (list: StatusIncident[]) => [
  ...list.filter((i) => i.resolved_at === null),
  ...list.filter((i) => i.resolved_at !== null),
]

function StatusBadge({ i }: { i: StatusIncident }) {
  return html`<span class="badge">${INCIDENT_STATUS_TEXT[i.status]}</span>${
    i.draft ? html` <span class="badge draft">Draft</span>` : null
  }`
}

/** The page's incidents on its screen. */
export function IncidentsSection({ page, incidents }: { page: StatusPage; incidents: StatusIncident[] }) {
  return html`<section aria-labelledby="incidents">
    <h2 id="incidents">Incidents</h2>
    <p class="muted">
      Say what is happening: open incidents show at the top of the public page, resolved ones for 90
      days. Drafts are seen by you only until you publish them.
    </p>
    <p><a class="button" href=${`/status-pages/${page.id}/incidents/new`}>Post an incident</a></p>
    ${
      incidents.length === 0
        ? html`<p>No incidents yet.</p>`
        : html`<div class="table-wrap">
          <table>
            <caption class="muted">
              Incidents, open first
            </caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Status</th>
                <th scope="col">Impact</th>
                <th scope="col">Last change</th>
              </tr>
            </thead>
            <tbody>
              ${openFirst(incidents).map(
                (i) =>
                  html`<tr>
                    <td><a href=${incidentPath(page, i)}>${i.title}</a></td>
                    <td><${StatusBadge} i=${i} /></td>
                    <td>${IMPACT_TEXT[i.impact]}</td>
                    <td class="when">${fmtDate(i.updated_at)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`
    }
  </section>`
}

function StatusSelect({ value }: { value?: string }) {
  return html`<label
    >Status
    <select name="status">
      ${INCIDENT_STATUSES.map(
        (s) =>
          html`<option value=${s} selected=${s === (value ?? 'investigating')}>${INCIDENT_STATUS_TEXT[s]}</option>`,
      )}
    </select></label
  >`
}

function ImpactSelect({ value }: { value?: string }) {
  return html`<label
    >Impact
    <select name="impact">
      ${INCIDENT_IMPACTS.map(
        (s) => html`<option value=${s} selected=${s === (value ?? 'minor')}>${IMPACT_TEXT[s]}</option>`,
      )}
    </select></label
  >`
}

function Affected({ monitors, chosen }: { monitors: PageMonitor[]; chosen: string[] }) {
  const ticked = new Set(chosen)
  return html`<fieldset>
    <legend>Affected monitors</legend>
    ${
      monitors.length === 0
        ? html`<p class="muted">This page shows no monitors.</p>`
        : monitors.map(
            (m) =>
              html`<label class="check"
              ><input type="checkbox" name="monitor_ids" value=${m.id} checked=${ticked.has(m.id)} />
              ${m.name}</label
            >`,
          )
    }
  </fieldset>`
}

const MessageField = ({ label, value }: { label: string; value?: string }) =>
  html`<label
    >${label}
    <textarea name="message" rows="4" required maxlength="5000">${value ?? ''}</textarea></label
  >`

export function incidentNewPage(
  ctx: PageContext,
  page: StatusPage,
  monitors: PageMonitor[],
  f: Sent<IncidentInput> = {},
) {
  const v = f.values ?? {}
  return Page(
    ctx,
    'Post an incident',
    html`<h1>Post an incident on “${page.title}”</h1>
      <p><a href=${`/status-pages/${page.id}#incidents`}>Back to the status page</a></p>
      <${ErrorText} message=${f.error} />
      <form class="stack" method="post" action=${`/status-pages/${page.id}/incidents`}>
        <${CsrfField} token=${ctx.csrf} />
        <label>Title <input type="text" name="title" required maxlength="200" value=${v.title ?? ''} /></label>
        <${StatusSelect} value=${v.status} />
        <${MessageField} label="Message" value=${v.message} />
        <${ImpactSelect} value=${v.impact} />
        <${Affected} monitors=${monitors} chosen=${v.monitor_ids ?? []} />
        <label class="check"
          ><input type="checkbox" name="draft" value="1" checked=${!!v.draft} /> Save as a draft: only you see
          it, and subscribers hear of it when you publish it</label
        >
        <button type="submit">Post incident</button>
      </form>`,
  )
}

/** What an incident's screen shows besides the incident: its forms sent back with their refusal. */
export interface IncidentForms {
  monitors: PageMonitor[]
  update?: Sent<IncidentUpdateInput>
  edit?: Sent<IncidentEditInput>
}

function Draft({ ctx, page, i }: { ctx: PageContext; page: StatusPage; i: StatusIncident }) {
  if (!i.draft) return null
  return html`<div class="notice">
    <p>
      <strong>This incident is a draft.</strong> Only you see it; publishing shows it on the public page
      and tells the page's subscribers.
    </p>
    <div class="row">
      <form class="inline" method="post" action=${`${incidentPath(page, i)}/publish`}>
        <${CsrfField} token=${ctx.csrf} />
        <button type="submit">Publish</button>
      </form>
      <a class="button secondary" href=${`${incidentPath(page, i)}/delete`}>Discard</a>
    </div>
  </div>`
}

function Updates({ i }: { i: StatusIncident }) {
  return html`<ol class="updates">
    ${i.updates.map(
      (u) =>
        html`<li>
          <p><strong>${INCIDENT_STATUS_TEXT[u.status]}</strong> <span class="muted">${fmtDate(u.created_at)}</span></p>
          <p class="message">${u.message}</p>
        </li>`,
    )}
  </ol>`
}

export function incidentPage(ctx: PageContext, page: StatusPage, i: StatusIncident, f: IncidentForms) {
  const path = incidentPath(page, i)
  const up = f.update?.values ?? {}
  const ed = f.edit?.values ?? {}
  return Page(
    ctx,
    i.title,
    html`<h1>${i.title}</h1>
      <p><a href=${`/status-pages/${page.id}#incidents`}>Back to ${page.title}</a></p>
      <p><${StatusBadge} i=${i} /> ${IMPACT_TEXT[i.impact]} · opened ${fmtDate(i.created_at)}</p>
      <${Draft} ctx=${ctx} page=${page} i=${i} />
      <h2>Post an update</h2>
      <${ErrorText} message=${f.update?.error} id="update-error" />
      <form class="stack" method="post" action=${`${path}/updates`}>
        <${CsrfField} token=${ctx.csrf} />
        <${StatusSelect} value=${up.status ?? i.status} />
        <${MessageField} label="Update" value=${up.message} />
        <button type="submit">Post update</button>
      </form>
      <h2>Updates, newest first</h2>
      <${Updates} i=${i} />
      <h2>Edit</h2>
      <${ErrorText} message=${f.edit?.error} id="edit-error" />
      <form class="stack" method="post" action=${path}>
        <${CsrfField} token=${ctx.csrf} />
        <label
          >Title <input type="text" name="title" required maxlength="200" value=${ed.title ?? i.title}
        /></label>
        <${ImpactSelect} value=${ed.impact ?? i.impact} />
        <${Affected} monitors=${f.monitors} chosen=${ed.monitor_ids ?? i.monitor_ids} />
        <button type="submit">Save changes</button>
      </form>
      <h2>Delete</h2>
      <p><a class="button danger" href=${`${path}/delete`}>Delete this incident</a></p>`,
  )
}

export function incidentDeletePage(ctx: PageContext, page: StatusPage, i: StatusIncident) {
  const what = i.draft ? 'Discard the draft' : 'Delete the incident'
  return Page(
    ctx,
    i.draft ? 'Discard draft' : 'Delete incident',
    html`<h1>${what} “${i.title}”?</h1>
      <p>
        ${
          i.draft
            ? 'Nobody has seen it: it goes without a word to subscribers.'
            : 'It leaves the public page and its feeds with its updates. Subscribers are not told. This cannot be undone.'
        }
      </p>
      <form class="row" method="post" action=${`${incidentPath(page, i)}/delete`}>
        <${CsrfField} token=${ctx.csrf} />
        <button type="submit" class="danger">${i.draft ? 'Discard' : 'Delete'}</button>
        <a class="button secondary" href=${incidentPath(page, i)}>Cancel</a>
      </form>`,
  )
}
