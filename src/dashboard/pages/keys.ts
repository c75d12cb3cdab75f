/** The API-keys area: create (secret shown once, with a copy button), list, revoke with confirmation. */
import type { KeyRecord } from '../../store/types.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { fmtDate, html } from './html.js'

export function NewSecret({
  name,
  secret,
  label = 'Your new API key',
}: {
  name: string
  secret: string
  label?: string
}) {
  return html`<section class="notice" aria-labelledby="secret-h">
    <h2 id="secret-h">${label}: ${name}</h2>
    <p><strong>Copy it now: it is shown only this once.</strong> We store only a hash of it.</p>
    <div class="row">
      <label
        >Secret
        <input
          id="new-secret"
          class="secret"
          type="text"
          readonly
          value=${secret}
          autocomplete="off"
          spellcheck="false"
        />
      </label>
      <button type="button" data-copy="new-secret" data-status="copy-status" hidden>Copy</button>
    </div>
    <p role="status" id="copy-status"></p>
  </section>`
}

export function KeysTable({
  keys,
  owners,
  revokeBase = '/keys',
}: {
  keys: KeyRecord[]
  owners?: Map<string, string>
  revokeBase?: string
}) {
  if (keys.length === 0) return html`<p>No keys yet.</p>`
  return html`<div class="table-wrap">
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Prefix</th>
          ${owners ? html`<th scope="col">Owner</th>` : null}
          <th scope="col" class="hide-narrow">Created</th>
          <th scope="col" class="hide-narrow">Last used</th>
          <th scope="col">Revoked</th>
          <th scope="col"><span class="muted">Action</span></th>
        </tr>
      </thead>
      <tbody>
        ${keys.map(
          (k) =>
            html`<tr>
              <td>${k.name}</td>
              <td><code>${k.prefix}…</code></td>
              ${owners ? html`<td>${owners.get(k.user_id) ?? k.user_id}</td>` : null}
              <td class="hide-narrow">${fmtDate(k.created_at)}</td>
              <td class="hide-narrow">${k.last_used_at ? fmtDate(k.last_used_at) : 'never'}</td>
              <td>${k.revoked_at ? fmtDate(k.revoked_at) : 'no'}</td>
              <td>
                ${
                  k.revoked_at
                    ? null
                    : html`<form class="inline" method="get" action=${`${revokeBase}/${k.id}/revoke`}>
                        <button type="submit" class="secondary">Revoke</button>
                      </form>`
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`
}

export function keysPage(
  ctx: PageContext,
  o: { keys: KeyRecord[]; created?: { name: string; secret: string }; error?: string; name?: string },
) {
  return Page(
    ctx,
    'API keys',
    html`<h1>API keys</h1>
      <p>
        Keys let the CLI, your scripts and AI agents call the API as you. Or run <code>sitehealth login</code> on your machine.
      </p>
      ${o.created ? html`<${NewSecret} name=${o.created.name} secret=${o.created.secret} />` : null}
      <h2>Create a key</h2>
      <${ErrorText} message=${o.error} />
      <form class="row" method="post" action="/keys">
        <${CsrfField} token=${ctx.csrf} />
        <label
          >Name
          <input
            type="text"
            name="name"
            required
            maxlength="100"
            value=${o.name ?? ''}
            placeholder="CI pipeline"
        /></label>
        <button type="submit">Create key</button>
      </form>
      <h2>Your keys</h2>
      <${KeysTable} keys=${o.keys} />`,
    { scripts: [] },
  )
}

export function revokePage(ctx: PageContext, key: KeyRecord, action: string, back: string) {
  return Page(
    ctx,
    'Revoke key',
    html`<h1>Revoke the key “${key.name}”?</h1>
      <p>Anything using <code>${key.prefix}…</code> stops working at once. This cannot be undone.</p>
      <form class="row" method="post" action=${action}>
        <${CsrfField} token=${ctx.csrf} />
        <button type="submit" class="danger">Revoke</button>
        <a class="button secondary" href=${back}>Cancel</a>
      </form>`,
  )
}
