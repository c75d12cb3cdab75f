/** Maintenance windows: the list with a create form (one-off or weekly), and the delete confirmation. */
import { WEEKDAYS, type MaintenanceWindow } from '../../contract/monitoring.js'
import type { MaintenanceInput } from '../maintenance.js'
import type { MonitorView } from '../views.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { fmtDate, html } from './html.js'

const DAY_NAMES: Record<string, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
}

export function whenOf(w: MaintenanceWindow): string {
  if (w.weekly) {
    const { days, start, duration_minutes, timezone } = w.weekly
    return `every ${days.join(', ')} at ${start} for ${duration_minutes} min (${timezone})`
  }
  return `${fmtDate(w.starts_at)} to ${fmtDate(w.ends_at)}`
}

const nextOf = (w: MaintenanceWindow) =>
  w.active
    ? `in progress, until ${fmtDate(w.next_ends_at)}`
    : w.next_starts_at
      ? `next ${fmtDate(w.next_starts_at)}`
      : 'over'

function monitorsOf(w: MaintenanceWindow, names: Map<string, string>): string {
  if (w.monitor_ids === 'all') return 'all monitors'
  return w.monitor_ids.map((id) => names.get(id) ?? id).join(', ')
}

export interface MaintenanceForm {
  monitors: MonitorView[]
  values?: Partial<MaintenanceInput>
  error?: string
}

/** Where the form posts and what its button says: create on the list, save on a window's edit page. */
interface FormTarget {
  action: string
  submit: string
}

const CREATE: FormTarget = { action: '/maintenance', submit: 'Create maintenance window' }

/** A window as the form's values: a one-off window's times in UTC, a weekly one's in its zone. */
export function valuesOf(w: MaintenanceWindow): MaintenanceInput {
  const local = (iso: string | null) => (iso ? iso.slice(0, 16) : '')
  return {
    name: w.name,
    monitor_ids: w.monitor_ids,
    kind: w.weekly ? 'weekly' : 'once',
    timezone: w.weekly?.timezone ?? 'UTC',
    starts_local: w.weekly ? '' : local(w.starts_at),
    ends_local: w.weekly ? '' : local(w.ends_at),
    days: w.weekly?.days ?? [],
    start: w.weekly?.start ?? '02:00',
    duration_minutes: w.weekly?.duration_minutes ?? 60,
  }
}

function Form({ ctx, f, to = CREATE }: { ctx: PageContext; f: MaintenanceForm; to?: FormTarget }) {
  const v = f.values ?? {}
  const chosen = new Set(v.monitor_ids === 'all' ? [] : (v.monitor_ids ?? []))
  const all = v.monitor_ids === undefined || v.monitor_ids === 'all'
  const weekly = v.kind === 'weekly'
  const days = new Set(v.days ?? [])
  return html`<${ErrorText} message=${f.error} />
    <form class="stack" method="post" action=${to.action}>
      <${CsrfField} token=${ctx.csrf} />
      <label>Name <input type="text" name="name" required maxlength="100" value=${v.name ?? ''} /></label>
      <fieldset>
        <legend>Monitors</legend>
        <label class="check"
          ><input type="radio" name="scope" value="all" checked=${all} /> All monitors, also ones created later</label
        >
        <label class="check"
          ><input type="radio" name="scope" value="selected" checked=${!all} /> Only those ticked below</label
        >
        ${f.monitors.map(
          (m) =>
            html`<label class="check"
              ><input type="checkbox" name="monitor_ids" value=${m.id} checked=${chosen.has(m.id)} /> ${m.name}</label
            >`,
        )}
      </fieldset>
      <fieldset>
        <legend>When</legend>
        <label class="check"
          ><input type="radio" name="kind" value="once" checked=${!weekly} /> Once, from … to …</label
        >
        <label>From <input type="datetime-local" name="starts_local" value=${v.starts_local ?? ''} /></label>
        <label>To <input type="datetime-local" name="ends_local" value=${v.ends_local ?? ''} /></label>
        <label class="check"
          ><input type="radio" name="kind" value="weekly" checked=${weekly} /> Every week, on the days ticked</label
        >
        <div class="row">
          ${WEEKDAYS.map(
            (d) =>
              html`<label class="check"
                ><input type="checkbox" name="days" value=${d} checked=${days.has(d)} /> ${DAY_NAMES[d]}</label
              >`,
          )}
        </div>
        <label>Starting at <input type="time" name="start" value=${v.start ?? '02:00'} /></label>
        <label
          >Duration (minutes)
          <input type="number" name="duration_minutes" min="1" max="10080" value=${v.duration_minutes ?? 60}
        /></label>
      </fieldset>
      <label
        >Time zone
        <input
          type="text"
          name="timezone"
          required
          maxlength="100"
          aria-describedby="tz-help"
          value=${v.timezone ?? 'UTC'}
      /></label>
      <p class="muted" id="tz-help">
        An IANA name such as Europe/Berlin or America/New_York: the times above are read in it, and a weekly
        window keeps its local time across daylight-saving changes.
      </p>
      <button type="submit">${to.submit}</button>
    </form>`
}

export function maintenancePage(
  ctx: PageContext,
  o: { windows: MaintenanceWindow[] | null } & MaintenanceForm,
) {
  if (o.windows === null)
    return Page(
      ctx,
      'Maintenance',
      html`<h1>Maintenance</h1>
        <p>Maintenance windows are not available on this server.</p>`,
    )
  const names = new Map(o.monitors.map((m) => [m.id, m.name]))
  return Page(
    ctx,
    'Maintenance',
    html`<h1>Maintenance</h1>
      <p>
        Inside a maintenance window monitors keep running, but they raise no alert, read “maintenance”, and
        their runs do not count in uptime. Public status pages show the window.
      </p>
      ${
        o.windows.length === 0
          ? html`<p>No maintenance windows yet.</p>`
          : html`<div class="table-wrap">
              <table>
                <caption class="muted">
                  Your maintenance windows
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">When</th>
                    <th scope="col">Now</th>
                    <th scope="col">Monitors</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  ${o.windows.map(
                    (w) =>
                      html`<tr>
                        <td>${w.name}</td>
                        <td>${whenOf(w)}</td>
                        <td>${nextOf(w)}</td>
                        <td>${monitorsOf(w, names)}</td>
                        <td>
                          <div class="row">
                            <a href=${`/maintenance/${w.id}/edit`} aria-label=${`Edit ${w.name}`}>Edit</a>
                            <a href=${`/maintenance/${w.id}/delete`} aria-label=${`Delete ${w.name}`}>Delete</a>
                          </div>
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <h2>Create a maintenance window</h2>
      <${Form} ctx=${ctx} f=${o} />`,
  )
}

export function maintenanceDeletePage(ctx: PageContext, w: MaintenanceWindow) {
  return Page(
    ctx,
    'Delete maintenance window',
    html`<h1>Delete the maintenance window “${w.name}”?</h1>
      <p>${whenOf(w)}. Its monitors alert again at once if they are down.</p>
      <form class="row" method="post" action=${`/maintenance/${w.id}/delete`}>
        <${CsrfField} token=${ctx.csrf} />
        <button type="submit" class="danger">Delete</button>
        <a class="button secondary" href="/maintenance">Cancel</a>
      </form>`,
  )
}

export function maintenanceEditPage(ctx: PageContext, w: MaintenanceWindow, f: MaintenanceForm) {
  return Page(
    ctx,
    `Edit ${w.name}`,
    html`<h1>Edit the maintenance window “${w.name}”</h1>
      <p><a href="/maintenance">Back to maintenance</a></p>
      <${Form}
        ctx=${ctx}
        f=${{ ...f, values: f.values ?? valuesOf(w) }}
        to=${{ action: `/maintenance/${w.id}/edit`, submit: 'Save changes' }}
      />`,
  )
}
