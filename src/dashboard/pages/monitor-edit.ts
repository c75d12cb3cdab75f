/** A monitor's edit page (settings, assertions, alert channels) and its delete confirmation. */
import { CHANNEL_TYPES, listWords, providerFace } from '../../contract/channels.js'
import type { MonitorEdit } from '../monitors.js'
import type { MonitorView } from '../views.js'
import { intervalField, typeFace, type TypeFormField } from '../../contract/monitor-types/index.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { html } from './html.js'
import { FormField } from './monitors.js'

/** A field of the monitor as its edit form shows it (the view carries the API's fields). */
function shown(m: MonitorView, edit: NonNullable<TypeFormField['edit']>): string {
  const value = (m as unknown as Record<string, unknown>)[edit.from]
  return edit.show ? edit.show(value) : String(value ?? '')
}

/** The type's own fields of the edit form, beside the name or the interval. */
const ownFields = (m: MonitorView, beside: 'name' | 'interval') =>
  typeFace(m.type).form.fields.filter((f) => f.edit?.beside === beside)

function Settings({ ctx, m, values }: { ctx: PageContext; m: MonitorView; values: MonitorEdit }) {
  const own = (beside: 'name' | 'interval') =>
    ownFields(m, beside).map((f) => html`<${FormField} field=${f} value=${values.own[f.name] ?? ''} />`)
  return html`<form class="stack" method="post" action=${`/monitors/${m.id}/edit`}>
    <${CsrfField} token=${ctx.csrf} />
    <label>Name <input type="text" name="name" required maxlength="100" value=${values.name} /></label>
    ${own('name')}
    <${FormField} field=${intervalField('How often', values.interval_seconds)} value=${String(values.interval_seconds)} />
    ${own('interval')}
    <label
      >Tags
      <input type="text" name="tags" value=${values.tags.join(' ')} aria-describedby="tags-help" />
    </label>
    <p class="muted" id="tags-help">
      <code>name</code> or <code>name:value</code>, separated by spaces: <code>env:prod team:web critical</code>.
    </p>
    <label
      >Failures before down
      <input type="number" name="down_after" min="1" max="10" required value=${values.down_after} />
    </label>
    <label
      >Minimum score
      <input type="number" name="min_score" min="0" max="100" placeholder="none" value=${values.min_score ?? ''} />
    </label>
    <p class="muted" id="min-help">Below this health score the monitor is degraded; leave empty for none.</p>
    <label
      >Assertions
      <textarea name="assertions" rows="4" aria-describedby="assert-help">${values.assertions.join('\n')}</textarea>
    </label>
    <p class="muted" id="assert-help">
      One per line, as the CLI takes them: <code>status_code equals 200</code>,
      <code>json_body $.status equals ok</code>, <code>response_time less_than 800</code>. A run whose assertion
      fails counts as a failure.
    </p>
    <button type="submit">Save changes</button>
  </form>`
}

/** The field each provider's one input fills (the target: a URL, an address). */
const targetFields = () => CHANNEL_TYPES.map((t) => providerFace(t).fields[providerFace(t).target])
const distinct = (xs: string[]) => [...new Set(xs)]
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** "webhook, Slack, Discord and Teams take their incoming-webhook URL; email takes an address" */
function whatEachTakes(): string {
  const byTakes = new Map<string, string[]>()
  for (const t of CHANNEL_TYPES) {
    const f = providerFace(t)
    byTakes.set(f.takes, [...(byTakes.get(f.takes) ?? []), f.title])
  }
  return [...byTakes]
    .map(([takes, titles]) => `${listWords(titles)} ${titles.length > 1 ? 'take' : 'takes'} ${takes}`)
    .join('; ')
}

function Channels({ ctx, m }: { ctx: PageContext; m: MonitorView }) {
  return html`<form class="stack" method="post" action=${`/monitors/${m.id}/channels`}>
    <${CsrfField} token=${ctx.csrf} />
    ${
      m.channels.length === 0
        ? html`<p>No alert channels: changes of state are only shown here.</p>`
        : html`<fieldset>
            <legend>Current channels (tick to remove)</legend>
            ${m.channels.map(
              (c) =>
                html`<label class="check"
                  ><input type="checkbox" name="remove" value=${c.id} /> ${c.type}: ${c.target}</label
                >`,
            )}
          </fieldset>`
    }
    <fieldset>
      <legend>Add a channel</legend>
      <label
        >Type
        <select name="type">
          ${CHANNEL_TYPES.map((t) => html`<option value=${t}>${t}</option>`)}
        </select>
      </label>
      <label
        >${capitalise(distinct(targetFields().map((f) => f.label)).join(' or '))}
        <input type="text" name="target" placeholder=${distinct(targetFields().map((f) => f.example)).join(' or ')} />
      </label>
    </fieldset>
    <button type="submit">Save channels</button>
  </form>`
}

export function monitorEditPage(
  ctx: PageContext,
  m: MonitorView,
  o: { values?: MonitorEdit; error?: string } = {},
) {
  const values: MonitorEdit = o.values ?? {
    name: m.name,
    interval_seconds: m.interval_seconds,
    down_after: m.alerts.down_after,
    min_score: m.alerts.min_score,
    assertions: m.assertions,
    tags: m.tags,
    own: Object.fromEntries(
      typeFace(m.type).form.fields.flatMap((f) => (f.edit ? [[f.name, shown(m, f.edit)]] : [])),
    ),
  }
  return Page(
    ctx,
    `Edit ${m.name}`,
    html`<h1>Edit ${m.name}</h1>
      <p><a href=${`/monitors/${m.id}`}>Back to the monitor</a></p>
      <${ErrorText} message=${o.error} />
      <h2>Settings</h2>
      <${Settings} ctx=${ctx} m=${m} values=${values} />
      <h2>Alert channels</h2>
      <p class="muted">${capitalise(whatEachTakes())}.</p>
      <${Channels} ctx=${ctx} m=${m} />`,
  )
}

export function monitorDeletePage(ctx: PageContext, m: MonitorView) {
  return Page(
    ctx,
    'Delete monitor',
    html`<h1>Delete the monitor “${m.name}”?</h1>
      <p>Its runs, events and uptime go with it, and it leaves any status page that shows it. Saved checks stay. This cannot be undone.</p>
      <form class="row" method="post" action=${`/monitors/${m.id}/delete`}>
        <${CsrfField} token=${ctx.csrf} />
        <button type="submit" class="danger">Delete</button>
        <a class="button secondary" href=${`/monitors/${m.id}`}>Cancel</a>
      </form>`,
  )
}
