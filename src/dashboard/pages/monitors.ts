/** Monitors: the list with a create form, and a monitor's page (state, pause, history chart, runs, events). */
import type { MonitorEventView, MonitorRunView, MonitorView } from '../monitors-port.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { fmtDate, html } from './html.js'

const INTERVALS: Array<[number, string]> = [
  [60, 'every minute'],
  [300, 'every 5 minutes'],
  [900, 'every 15 minutes'],
  [3600, 'every hour'],
  [86400, 'every day'],
]

export const State = ({ state }: { state: string }) =>
  html`<span class=${`badge st-${state}`}>${state}</span>`

export function monitorsPage(
  ctx: PageContext,
  o: { monitors: MonitorView[] | null; error?: string; url?: string; name?: string },
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
      <p>A monitor re-checks a site on a schedule; every run is a saved check and costs 1 credit.</p>
      <h2>Create a monitor</h2>
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
          >How often
          <select name="interval_seconds">
            ${INTERVALS.map(([s, label]) => html`<option value=${s} selected=${s === 300}>${label}</option>`)}
          </select>
        </label>
        <button type="submit">Create monitor</button>
      </form>
      <h2>Your monitors</h2>
      ${
        o.monitors.length === 0
          ? html`<p>No monitors yet.</p>`
          : html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Monitor</th>
                    <th scope="col">State</th>
                    <th scope="col">Last score</th>
                    <th scope="col" class="hide-narrow">Next run</th>
                  </tr>
                </thead>
                <tbody>
                  ${o.monitors.map(
                    (m) =>
                      html`<tr>
                        <td class="url">
                          <a href=${`/monitors/${m.id}`}>${m.name}</a><br /><span class="muted"
                            >${m.ref ? `${m.ref} · ` : ''}${m.url ?? 'heartbeat'}</span
                          >
                        </td>
                        <td><${State} state=${m.state} /></td>
                        <td>${m.last_check ? m.last_check.health_score : '—'}</td>
                        <td class="hide-narrow">${m.paused ? 'paused' : fmtDate(m.next_run_at)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }`,
  )
}

const schedule = (m: MonitorView) =>
  `every ${Math.round(m.interval_seconds / 60)} min; ${m.paused ? 'paused' : `next ${fmtDate(m.next_run_at)}`}`

export function monitorPage(
  ctx: PageContext,
  m: MonitorView,
  runs: MonitorRunView[],
  events: MonitorEventView[],
) {
  const chronological = [...runs].reverse()
  const series = {
    t: chronological.map((r) => Math.floor(Date.parse(r.started_at) / 1000)),
    score: chronological.map((r) => r.health_score),
    ms: chronological.map((r) => r.response_time_ms),
  }
  return Page(
    ctx,
    m.name,
    html`<h1>${m.name}</h1>
      <p class="muted">${m.url ?? 'Heartbeat monitor'}${m.ref ? html` · ref <code>${m.ref}</code>` : ''}</p>
      <div class="cards">
        <section class="card" aria-labelledby="state-h">
          <h2 id="state-h">State</h2>
          <p class="big"><${State} state=${m.state} /></p>
        </section>
        <section class="card" aria-labelledby="last-h">
          <h2 id="last-h">Last check</h2>
          <p>
            ${m.last_check ? html`<a href=${`/checks/${m.last_check.id}`}>score ${m.last_check.health_score}</a>, ${fmtDate(m.last_check.created_at)}` : 'none yet'}
          </p>
        </section>
        <section class="card" aria-labelledby="sched-h">
          <h2 id="sched-h">Schedule</h2>
          <p>${schedule(m)}</p>
          <form method="post" action=${`/monitors/${m.id}/${m.paused ? 'resume' : 'pause'}`}>
            <${CsrfField} token=${ctx.csrf} />
            <button type="submit" class="secondary">${m.paused ? 'Resume' : 'Pause'}</button>
          </form>
        </section>
      </div>
      <h2>History</h2>
      ${
        runs.length === 0
          ? html`<p>No runs yet.</p>`
          : html`<figure>
                <div
                  id="history-chart"
                  role="img"
                  aria-label="Health score and response time over time; the same numbers are in the table below."
                ></div>
                <script
                  type="application/json"
                  id="history-data"
                  dangerouslySetInnerHTML=${{ __html: JSON.stringify(series).replace(/</g, '\\u003c') }}
                ></script>
              </figure>
              <div class="table-wrap">
                <table>
                  <caption class="muted">
                    Runs, newest first
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Started</th>
                      <th scope="col">Outcome</th>
                      <th scope="col">Score</th>
                      <th scope="col">Response time</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${runs.map(
                      (r) =>
                        html`<tr>
                          <td>${fmtDate(r.started_at)}</td>
                          <td>
                            ${r.outcome === 'saved' && r.check_id ? html`<a href=${`/checks/${r.check_id}`}>saved</a>` : html`failed: ${r.error ?? ''}`}
                          </td>
                          <td>${r.health_score ?? '—'}</td>
                          <td>${r.response_time_ms === null ? '—' : `${r.response_time_ms} ms`}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
      }
      <h2>Events</h2>
      ${
        events.length === 0
          ? html`<p>No alerts raised yet.</p>`
          : html`<ul>
              ${events.map(
                (e) =>
                  html`<li>
                    <strong>${e.event}</strong> ${fmtDate(e.occurred_at)}: ${e.message}
                    ${e.deliveries.length > 0 ? html` <span class="muted">(${e.deliveries.map((d) => `${d.status} after ${d.attempts}`).join(', ')})</span>` : null}
                  </li>`,
              )}
            </ul>`
      }`,
    { scripts: runs.length > 0 ? ['chart.js'] : [], styles: runs.length > 0 ? ['chart.css'] : [] },
  )
}
