/** Overview, the checks list, a check's page and the run-a-check page. */
import { SIGNAL_NAMES, type SavedCheck } from '../../contract/schemas.js'
import type { CheckRecord } from '../../store/types.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { fmtDate, html } from './html.js'

export const SIGNAL_LABELS: Record<(typeof SIGNAL_NAMES)[number], string> = {
  reachability: 'Reachability',
  https_ssl: 'HTTPS and certificate',
  response_time: 'Response time',
  security_headers: 'Security headers',
  pagespeed: 'Performance',
}
const STATUS_LABELS: Record<string, string> = {
  ok: 'OK',
  warning: 'Warning',
  needs_review: 'Needs review',
  unavailable: 'Unavailable',
}

export const Risk = ({ level }: { level: string }) =>
  html`<span class=${`badge r-${level}`}>${level} risk</span>`

function ChecksTable({ checks }: { checks: CheckRecord[] }) {
  if (checks.length === 0) return html`<p>No checks yet. <a href="/run">Run a check</a>.</p>`
  return html`<div class="table-wrap">
    <table>
      <caption class="muted">
        Newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Score</th>
          <th scope="col" class="hide-narrow">Risk</th>
          <th scope="col">Checked</th>
        </tr>
      </thead>
      <tbody>
        ${checks.map(
          (c) =>
            html`<tr>
              <td class="url"><a href=${`/checks/${c.id}`}>${c.url}</a></td>
              <td>${c.health_score}</td>
              <td class="hide-narrow"><${Risk} level=${c.risk_level} /></td>
              <td class="when">${fmtDate(c.created_at)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`
}

export function overviewPage(
  ctx: PageContext,
  o: {
    credits: number
    checks: CheckRecord[]
    monitors: Array<{ id: string; name: string; url: string | null; state: string }> | null
  },
) {
  return Page(
    ctx,
    'Overview',
    html`<h1>Overview</h1>
      <div class="cards">
        <section class="card" aria-labelledby="credits-h">
          <h2 id="credits-h">Credits</h2>
          <p class="big">${o.credits}</p>
          <p class="muted">Each saved check costs 1 credit.</p>
        </section>
        <section class="card" aria-labelledby="run-h">
          <h2 id="run-h">Check a site</h2>
          <p><a class="button" href="/run">Run a check</a></p>
        </section>
      </div>
      <h2>Latest checks</h2>
      <${ChecksTable} checks=${o.checks} />
      <p><a href="/checks">All checks</a></p>
      <h2>Monitors</h2>
      ${
        o.monitors === null
          ? html`<p class="muted">Monitors are not available on this server.</p>`
          : o.monitors.length === 0
            ? html`<p>No monitors yet. <a href="/monitors">Create a monitor</a>.</p>`
            : html`<ul>
                ${o.monitors.map(
                  (m) =>
                    html`<li>
                      <a href=${`/monitors/${m.id}`}>${m.name || m.url}</a>${' '}<span class=${`badge st-${m.state}`}>${m.state}</span>
                    </li>`,
                )}
              </ul>`
      }`,
  )
}

export function checksPage(
  ctx: PageContext,
  o: { checks: CheckRecord[]; next: string | null; cursor?: string },
) {
  return Page(
    ctx,
    'Checks',
    html`<h1>Checks</h1>
      <p><a class="button" href="/run">Run a check</a></p>
      <${ChecksTable} checks=${o.checks} />
      <nav class="pager" aria-label="Pages">
        ${o.cursor ? html`<a href="/checks">Newest</a>` : null}
        ${o.next ? html`<a href=${`/checks?cursor=${encodeURIComponent(o.next)}`}>Older checks</a>` : null}
      </nav>`,
  )
}

function findingsOf(
  details: Record<string, unknown> | undefined,
): Array<{ severity: string; message: string }> {
  const f = details?.findings
  return Array.isArray(f)
    ? (f as Array<{ severity: string; message: string }>).filter((x) => x && typeof x.message === 'string')
    : []
}

/** How the performance was judged: measured by Lighthouse in the lab browser, or estimated. */
function JudgedBy({ details }: { details: Record<string, unknown> | undefined }) {
  const method = details?.method
  if (method === 'lab') {
    const version = typeof details?.lighthouseVersion === 'string' ? ` ${details.lighthouseVersion}` : ''
    return html`<p class="judged"><strong>Measured</strong> by Lighthouse${version} in Chromium (simulated mobile).</p>`
  }
  if (method === 'estimate')
    return html`<p class="judged"><strong>Estimated</strong> without a browser, from the page and what it loads.</p>`
  return null
}

export function checkPage(ctx: PageContext, c: SavedCheck) {
  return Page(
    ctx,
    `Check of ${c.url}`,
    html`<h1>Check of ${c.url}</h1>
      <div class="cards">
        <section class="card" aria-labelledby="score-h">
          <h2 id="score-h">Health score</h2>
          <p class="big">${c.health_score}</p>
        </section>
        <section class="card" aria-labelledby="risk-h">
          <h2 id="risk-h">Risk</h2>
          <p class="big"><${Risk} level=${c.risk_level} /></p>
        </section>
        <section class="card" aria-labelledby="when-h">
          <h2 id="when-h">Checked</h2>
          <p>${fmtDate(c.created_at)}</p>
        </section>
      </div>
      <h2>Summary</h2>
      <p>${c.summary}</p>
      <h2>Signals</h2>
      <div class="signals">
        ${SIGNAL_NAMES.map((name) => {
          const s = c.checks[name]
          const score = (s.details as { score?: unknown } | undefined)?.score
          return html`<section class="signal" aria-labelledby=${`sig-${name}`}>
            <h3 id=${`sig-${name}`}>${SIGNAL_LABELS[name]}</h3>
            <p>
              <span class=${`badge s-${s.status}`}>${STATUS_LABELS[s.status] ?? s.status}</span>
              ${typeof score === 'number' ? html` <span class="muted">score ${score}/100</span>` : null}
            </p>
            <p>${s.message}</p>
            ${name === 'pagespeed' ? html`<${JudgedBy} details=${s.details} />` : null}
            ${
              findingsOf(s.details).length > 0
                ? html`<ul>
                    ${findingsOf(s.details).map((f) => html`<li><strong>${f.severity}</strong>: ${f.message}</li>`)}
                  </ul>`
                : null
            }
          </section>`
        })}
      </div>
      <p class="muted">Check id <code>${c.id}</code>. <a href="/checks">All checks</a></p>`,
  )
}

export function runPage(ctx: PageContext, o: { url?: string; error?: string; credits: number }) {
  return Page(
    ctx,
    'Run a check',
    html`<h1>Run a check</h1>
      <p>A check costs 1 credit when it is saved; you have ${o.credits}. It takes up to a few seconds.</p>
      <${ErrorText} message=${o.error} />
      <form class="stack" method="post" action="/run" data-progress="run-progress">
        <${CsrfField} token=${ctx.csrf} />
        <label
          >URL
          <input
            type="url"
            name="url"
            required
            placeholder="https://example.com"
            value=${o.url ?? ''}
            aria-invalid=${o.error ? 'true' : undefined}
            aria-describedby=${o.error ? 'form-error' : undefined}
          />
        </label>
        <div><button type="submit">Run check</button></div>
      </form>
      <div id="run-progress" hidden>
        <progress aria-label="Check in progress"></progress>
        <p role="status" data-elapsed>Checking…</p>
      </div>`,
  )
}
