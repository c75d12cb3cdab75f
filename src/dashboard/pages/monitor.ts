/**
 * One monitor's page: state with "down since" or how many failures until down, the last run (not
 * the last saved check), uptime, schedule and actions, the history chart with failed runs drawn,
 * incidents with durations, the runs table and the events.
 */
import {
  isFailing,
  type MaintenanceView,
  type MonitorEventView,
  type MonitorRunView,
  type MonitorView,
} from '../views.js'
import { typeFace } from '../../contract/monitor-types/index.js'
import { CsrfField, Page, type PageContext } from './layout.js'
import { fmtDate, html } from './html.js'
import { fmtMinute, RunsBar, span, State, Uptime } from './monitor-parts.js'

interface Incident {
  started_at: string
  ended_at: string | null
}

/** Down periods from the events (newest first): each monitor.down up to the monitor.up after it. */
export function incidentsOf(events: MonitorEventView[]): Incident[] {
  const out: Incident[] = []
  let upAfter: string | null = null
  for (const e of events) {
    if (e.event === 'monitor.up') upAfter = e.occurred_at
    else if (e.event === 'monitor.down') {
      out.push({ started_at: e.occurred_at, ended_at: upAfter })
      upAfter = null
    }
  }
  return out
}

/** The failing runs at the head of the history (newest first): how many in a row, and since when. */
function failingStreak(runs: MonitorRunView[]): { count: number; since: string | null } {
  let count = 0
  while (count < runs.length && isFailing(runs[count])) count++
  return { count, since: count > 0 ? runs[count - 1].started_at : null }
}

function stateDetail(m: MonitorView, runs: MonitorRunView[], events: MonitorEventView[], now: number) {
  if (m.paused) return null
  const streak = failingStreak(runs)
  if (m.state === 'down') {
    const since = incidentsOf(events).find((i) => i.ended_at === null)?.started_at ?? streak.since
    return since ? html`<p>Down since ${fmtMinute(since)} (${span(now - Date.parse(since))}).</p>` : null
  }
  if (streak.count > 0 && streak.count < m.alerts.down_after)
    return html`<p class="warn-text">
      ${streak.count} of ${m.alerts.down_after} failures: down after ${m.alerts.down_after} in a row.
    </p>`
  return null
}

function LastRun({ run }: { run: MonitorRunView | undefined }) {
  if (!run) return html`<p>none yet</p>`
  const when = fmtMinute(run.started_at)
  if (isFailing(run))
    return html`<p>
      <span class="badge st-down">failed</span> ${when}${run.error ? html`<br />${run.error}` : null}
      ${run.check_id ? html`<br /><a href=${`/checks/${run.check_id}`}>its check (score ${run.health_score})</a>` : null}
    </p>`
  return html`<p>
    <span class="badge st-up">ok</span> ${when}
    ${run.check_id ? html`<br /><a href=${`/checks/${run.check_id}`}>score ${run.health_score}</a>` : null}
    ${run.response_time_ms !== null ? html`, ${run.response_time_ms} ms` : null}
  </p>`
}

const minutes = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`)

const schedule = (m: MonitorView) =>
  typeFace(m.type).pushed
    ? `a beat every ${minutes(m.interval_seconds)}, ${minutes(m.grace_seconds ?? 0)} grace; ${m.paused ? 'paused' : `due by ${fmtMinute(m.next_run_at)}`}`
    : `every ${Math.round(m.interval_seconds / 60)} min; ${m.paused ? 'paused' : `next ${fmtMinute(m.next_run_at)}`}`

/** A heartbeat's newest beat among the runs shown. */
function LastBeat({ runs }: { runs: MonitorRunView[] }) {
  const beat = runs.find((r) => r.outcome === 'beat')
  if (beat) return html`<p><span class="badge st-up">beat</span> ${fmtMinute(beat.started_at)}</p>`
  return html`<p>${runs.length === 0 ? 'No beat yet.' : `None in the last ${runs.length} runs.`}</p>`
}

/** Where a heartbeat's job calls: the push URL itself once, at creation; afterwards only its shape. */
function PushUrl({ m, pushUrl, pushBase }: { m: MonitorView; pushUrl?: string; pushBase?: string }) {
  if (!typeFace(m.type).pushed) return null
  if (pushUrl)
    return html`<div class="notice push-hint" role="status">
      <p>
        <label for="push-url">Push URL, shown this once: copy it into your job now.</label>
        <input id="push-url" class="secret" type="text" readonly value=${pushUrl} />
      </p>
      <p>
        The job calls it with GET or POST after each run (<code>curl -fsS URL</code>); add
        <code>${'?status=down&msg=…'}</code> to report a failure. It needs no key: keep it secret.
      </p>
    </div>`
  return html`<p class="muted push-hint">
    Your job calls its push URL, <code>${pushBase ?? ''}/api/push/hb_${m.id.replace(/-/g, '')}…</code>, with GET or POST
    (<code>${'?status=down&msg=…'}</code> reports a failure). The full URL was shown once, when the monitor was
    created; for a new one, delete the monitor and create it again.
  </p>`
}

function Actions({ ctx, m }: { ctx: PageContext; m: MonitorView }) {
  return html`<div class="row">
    <form method="post" action=${`/monitors/${m.id}/${m.paused ? 'resume' : 'pause'}`}>
      <${CsrfField} token=${ctx.csrf} />
      <button type="submit" class="secondary">${m.paused ? 'Resume' : 'Pause'}</button>
    </form>
    ${
      !typeFace(m.type).url
        ? null
        : html`<form method="post" action=${`/monitors/${m.id}/run`}>
            <${CsrfField} token=${ctx.csrf} />
            <button type="submit" class="secondary">Run now</button>
          </form>`
    }
    <a class="button secondary" href=${`/monitors/${m.id}/edit`}>Edit</a>
    <a class="button secondary" href=${`/monitors/${m.id}/delete`}>Delete</a>
  </div>`
}

function chartData(runs: MonitorRunView[]) {
  const chronological = [...runs].reverse()
  return {
    t: chronological.map((r) => Math.floor(Date.parse(r.started_at) / 1000)),
    score: chronological.map((r) => (isFailing(r) ? null : r.health_score)),
    ms: chronological.map((r) => r.response_time_ms),
    // failed runs as marks on the score axis at 0: an outage is drawn, not a gap
    failed: chronological.map((r) => (isFailing(r) ? 0 : null)),
  }
}

function History({ runs }: { runs: MonitorRunView[] }) {
  if (runs.length === 0) return html`<p>No runs yet.</p>`
  return html`<figure>
      <div
        id="history-chart"
        role="img"
        aria-label="Health score (0 to 100, left axis) and response time (ms, right axis) of each run; failed runs are red marks at 0. The same numbers are in the runs table below."
      ></div>
      <script
        type="application/json"
        id="history-data"
        dangerouslySetInnerHTML=${{ __html: JSON.stringify(chartData(runs)).replace(/</g, '\\u003c') }}
      ></script>
    </figure>
    <div class="table-wrap">
      <table class="runs">
        <caption class="muted">
          Runs, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Outcome</th>
            <th scope="col">Score</th>
            <th scope="col">Time (ms)</th>
          </tr>
        </thead>
        <tbody>
          ${runs.map(
            (r) =>
              html`<tr class=${isFailing(r) ? 'failed' : undefined}>
                <td class="when">${fmtMinute(r.started_at)}</td>
                <td>
                  ${
                    isFailing(r)
                      ? html`failed${r.error ? `: ${r.error}` : r.assertions.some((a) => !a.passed) ? ': an assertion did not hold' : ''}`
                      : r.check_id
                        ? html`<a href=${`/checks/${r.check_id}`}>ok</a>`
                        : 'ok'
                  }
                </td>
                <td>${r.health_score ?? '—'}</td>
                <td>${r.response_time_ms ?? '—'}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`
}

function Maintenance({ list, now }: { list: MaintenanceView[]; now: number }) {
  if (list.length === 0)
    return html`<p>No maintenance window covers this monitor. Inside one, runs go on but raise no alert and count for no uptime.</p>`
  return html`<ul>
    ${list.map((w) => {
      const open = Date.parse(w.starts_at) <= now
      return html`<li>
        <strong>${w.name}</strong> ${open ? '(in progress)' : '(scheduled)'}:
        ${`${fmtMinute(w.starts_at)} to ${fmtMinute(w.ends_at)}`}
      </li>`
    })}
  </ul>`
}

function Incidents({ events, now }: { events: MonitorEventView[]; now: number }) {
  const list = incidentsOf(events)
  if (list.length === 0) return html`<p>No incidents in the recent events.</p>`
  return html`<ul>
    ${list.map(
      (i) =>
        html`<li>
          ${`Down from ${fmtMinute(i.started_at)} `}
          ${
            i.ended_at
              ? `to ${fmtMinute(i.ended_at)} (${span(Date.parse(i.ended_at) - Date.parse(i.started_at))})`
              : `and still down (${span(now - Date.parse(i.started_at))} so far)`
          }
        </li>`,
    )}
  </ul>`
}

export function monitorPage(
  ctx: PageContext,
  m: MonitorView,
  runs: MonitorRunView[],
  events: MonitorEventView[],
  o: {
    notice?: string
    secret?: string
    error?: string
    now?: number
    maintenance?: MaintenanceView[]
    /** A new heartbeat monitor's push URL, shown on this one answer. */
    pushUrl?: string
    /** The server's public address, for the push URL's shape. */
    pushBase?: string
  } = {},
) {
  const now = o.now ?? Date.now()
  return Page(
    ctx,
    m.name,
    html`<h1>${m.name}</h1>
      <p class="muted">${m.url ?? 'Heartbeat monitor'}${m.ref ? html` · ref <code>${m.ref}</code>` : ''}${
        m.tags.length ? html` · tags ${m.tags.map((t, i) => html`${i ? ' ' : ''}<code>${t}</code>`)}` : ''
      }</p>
      ${o.error ? html`<p class="error" role="alert">${o.error}</p>` : null}
      ${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : null}
      ${
        o.secret
          ? html`<p class="notice">
              The new webhook channel's signing secret, shown this once:
              <input class="secret" type="text" readonly value=${o.secret} aria-label="Signing secret" />
            </p>`
          : null
      }
      <${PushUrl} m=${m} pushUrl=${o.pushUrl} pushBase=${o.pushBase} />
      <div data-live>
        <div class="cards">
          <section class="card" aria-labelledby="state-h">
            <h2 id="state-h">State</h2>
            <p class="big"><${State} state=${m.state} /></p>
            ${stateDetail(m, runs, events, now)}
          </section>
          ${
            typeFace(m.type).pushed
              ? html`<section class="card" aria-labelledby="last-h">
                  <h2 id="last-h">Last beat</h2>
                  <${LastBeat} runs=${runs} />
                </section>`
              : html`<section class="card" aria-labelledby="last-h">
                  <h2 id="last-h">Last run</h2>
                  <${LastRun} run=${runs[0]} />
                </section>`
          }
          <section class="card" aria-labelledby="uptime-h">
            <h2 id="uptime-h">Uptime</h2>
            <${Uptime} m=${m} wide=${true} />
          </section>
          <section class="card" aria-labelledby="sched-h">
            <h2 id="sched-h">Schedule</h2>
            <p>${schedule(m)}</p>
            <p class="muted">Down after ${m.alerts.down_after} failed runs in a row${m.alerts.min_score !== null ? `; degraded below score ${m.alerts.min_score}` : ''}.</p>
          </section>
        </div>
        <h2>Recent runs</h2>
        <${RunsBar} runs=${runs} name=${m.name} />
        <h2>History</h2>
        <${History} runs=${runs} />
        <h2>Maintenance</h2>
        <${Maintenance} list=${o.maintenance ?? []} now=${now} />
        <h2>Incidents</h2>
        <${Incidents} events=${events} now=${now} />
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
        }
      </div>
      <h2>Actions</h2>
      <${Actions} ctx=${ctx} m=${m} />`,
    {
      scripts: runs.length > 0 ? ['chart.js'] : [],
      styles: runs.length > 0 ? ['chart.css'] : [],
      refresh: true,
    },
  )
}
