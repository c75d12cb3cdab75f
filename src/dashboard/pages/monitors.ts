/** Monitors: the list (state, the bar of recent runs, uptime, response time) with a create form. */
import { targetText } from '../../contract/monitor-types/index.js'
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
    error?: string
    url?: string
    name?: string
    tags?: string
    /** The heartbeat form's error and what was typed. */
    heartbeat?: { error: string; name: string; interval_seconds: number; grace_minutes: string }
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
      <h2>Create a monitor</h2>
      <p>A monitor re-checks a site on a schedule; every run is a saved check and costs 1 credit.</p>
      <${ErrorText} message=${o.error} />
      <form class="row" method="post" action="/monitors">
        <${CsrfField} token=${ctx.csrf} />
        <label
          >URL <input type="url" name="url" required placeholder="https://example.com" value=${o.url ?? ''}
        /></label>
        <label
          >Name <input type="text" name="name" maxlength="100" value=${o.name ?? ''} placeholder="optional"
        /></label>
        <label
          >Tags <input type="text" name="tags" value=${o.tags ?? ''} placeholder="env:prod team:web"
        /></label>
        <label
          >How often
          <select name="interval_seconds">
            ${INTERVALS.map(([s, label]) => html`<option value=${s} selected=${s === 300}>${label}</option>`)}
          </select>
        </label>
        <button type="submit">Create monitor</button>
      </form>
      <${HeartbeatForm} ctx=${ctx} values=${o.heartbeat} />`,
    { refresh: true },
  )
}

/** A heartbeat monitor: a job calls its push URL; silence past interval + grace is down. */
function HeartbeatForm({
  ctx,
  values,
}: {
  ctx: PageContext
  values?: { error: string; name: string; interval_seconds: number; grace_minutes: string }
}) {
  const every = values?.interval_seconds ?? 86400
  return html`<h2 id="heartbeat-h">Create a heartbeat monitor</h2>
    <p>
      For a cron job or a backup: the job calls the monitor's push URL each time it runs, and no call for
      the interval plus the grace is down. Beats cost no credits.
    </p>
    <${ErrorText} message=${values?.error} id="heartbeat-error" />
    <form class="row" method="post" action="/monitors/heartbeat" aria-labelledby="heartbeat-h">
      <${CsrfField} token=${ctx.csrf} />
      <label
        >Job <input type="text" name="name" required maxlength="100" value=${values?.name ?? ''} placeholder="nightly backup"
      /></label>
      <label
        >Expected
        <select name="interval_seconds">
          ${INTERVALS.map(([s, label]) => html`<option value=${s} selected=${s === every}>${label}</option>`)}
        </select>
      </label>
      <label
        >Grace (minutes)
        <input type="number" name="grace_minutes" min="0" max="1440" required value=${values?.grace_minutes ?? '5'}
      /></label>
      <button type="submit">Create heartbeat monitor</button>
    </form>`
}
