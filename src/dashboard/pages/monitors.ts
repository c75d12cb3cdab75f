/** Monitors: the list (state, the bar of recent runs, uptime, response time) with a create form. */
import {
  DEFAULT_MONITOR_TYPE,
  targetText,
  typeFaces,
  type MonitorTypeFace,
  type TypeFormField,
} from '../../contract/monitor-types/index.js'
import type { MonitorType } from '../../contract/monitors.js'
import type { MonitorListItem } from '../views.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { html } from './html.js'
import { RunsBar, State, Uptime } from './monitor-parts.js'

export { State } from './monitor-parts.js'
export { monitorPage } from './monitor.js'

export const INTERVALS: Array<[number, string]> = [
  [60, 'every minute'],
  [300, 'every 5 minutes'],
  [900, 'every 15 minutes'],
  [3600, 'every hour'],
  [86400, 'every day'],
]

/** How many runs the list's bar shows. */
export const BAR_RUNS = 50

const responseTime = (m: MonitorListItem) => {
  const ms = m.recent.find((r) => r.response_time_ms !== null)?.response_time_ms
  return ms === undefined || ms === null ? '—' : `${ms} ms`
}

export function monitorsPage(
  ctx: PageContext,
  o: {
    monitors: MonitorListItem[] | null
    /** A create form refused: its type, the error and what was typed. */
    form?: FailedForm
  },
) {
  if (o.monitors === null)
    return Page(
      ctx,
      'Monitors',
      html`<h1>Monitors</h1>
        <p>Monitors are not available on this server.</p>`,
    )
  return Page(
    ctx,
    'Monitors',
    html`<h1>Monitors</h1>
      <div data-live>
        ${
          o.monitors.length === 0
            ? html`<p>No monitors yet.</p>`
            : html`<div class="table-wrap">
                <table class="monitors">
                  <caption class="muted">
                    Your monitors; the bar shows the last ${BAR_RUNS} runs, oldest on the left, failed ones in red
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Monitor</th>
                      <th scope="col">State</th>
                      <th scope="col" class="hide-narrow">Last ${BAR_RUNS} runs</th>
                      <th scope="col">Uptime 24 h / 30 d</th>
                      <th scope="col" class="hide-narrow">Response time</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${o.monitors.map(
                      (m) =>
                        html`<tr>
                          <td class="url">
                            <a href=${`/monitors/${m.id}`}>${m.name}</a><br /><span class="muted"
                              >${m.ref ? `${m.ref} · ` : ''}${targetText(m)}${m.tags.length ? ` · ${m.tags.join(' ')}` : ''}</span
                            >
                          </td>
                          <td><${State} state=${m.state} /></td>
                          <td class="hide-narrow"><${RunsBar} runs=${m.recent} name=${m.name} /></td>
                          <td><${Uptime} m=${m} /></td>
                          <td class="hide-narrow">${responseTime(m)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
        }
      </div>
      ${typeFaces().map((face) => html`<${CreateForm} ctx=${ctx} face=${face} failed=${o.form?.type === face.type ? o.form : undefined} />`)}`,
    { refresh: true },
  )
}

/** A create form the server refused: the type's, with its error and what was typed. */
export interface FailedForm {
  type: MonitorType
  error: string
  values: Record<string, string>
}

/** Where a type's create form posts: the default type's to /monitors, another's to /monitors/<type>. */
export const createPath = (type: MonitorType) =>
  type === DEFAULT_MONITOR_TYPE ? '/monitors' : `/monitors/${type}`

/** A type's create form (its face's fields), with what was typed when it was refused. */
function CreateForm({ ctx, face, failed }: { ctx: PageContext; face: MonitorTypeFace; failed?: FailedForm }) {
  const { heading, intro, submit, fields } = face.form
  const id = `${face.type}-h`
  return html`<h2 id=${id}>${heading}</h2>
    <p>${intro}</p>
    <${ErrorText} message=${failed?.error} id=${`${face.type}-error`} />
    <form class="row" method="post" action=${createPath(face.type)} aria-labelledby=${id}>
      <${CsrfField} token=${ctx.csrf} />
      ${fields.map((f) => html`<${FormField} field=${f} value=${failed?.values[f.name] ?? f.initial ?? ''} hint=${f.hint} />`)}
      <button type="submit">${submit}</button>
    </form>`
}

/** One field of a type's form: an input, or a choice of the intervals. */
export function FormField({ field: f, value, hint }: { field: TypeFormField; value: string; hint?: string }) {
  if (f.input === 'interval') {
    const chosen = Number(value)
    const intervals = INTERVALS.some(([s]) => s === chosen)
      ? INTERVALS
      : [...INTERVALS, [chosen, `every ${chosen} s`] as [number, string]]
    return html`<label
      >${f.label}
      <select name=${f.name}>
        ${intervals.map(([s, label]) => html`<option value=${s} selected=${s === chosen}>${label}</option>`)}
      </select>
    </label>`
  }
  return html`<label
    >${f.label}
    <input
      type=${f.input}
      name=${f.name}
      required=${f.required}
      maxlength=${f.maxlength}
      min=${f.min}
      max=${f.max}
      value=${value}
      placeholder=${hint}
  /></label>`
}
