/** Admin pages: users (create, invite, grant credits, disable) and every key. */
import type { AccountRecord } from '../../store/types.js'
import type { KeyRecord } from '../../store/types.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { KeysTable } from './keys.js'
import { fmtDate, html } from './html.js'

export interface UserRow {
  account: AccountRecord
  credits: number
}

/** A user with keys and no dashboard account. */
export interface ApiUserRow {
  user_id: string
  /** Keys not revoked. */
  activeKeys: number
  /** Its first key's creation. */
  since: string
  credits?: number
}

export function usersPage(
  ctx: PageContext,
  o: {
    users: UserRow[]
    apiUsers?: Array<ApiUserRow & { credits: number }>
    link?: { label: string; url: string }
    error?: string
  },
) {
  return Page(
    ctx,
    'Users',
    html`<h1>Users</h1>
      ${
        o.link
          ? html`<section class="notice" aria-labelledby="link-h">
              <h2 id="link-h">${o.link.label}</h2>
              <p>Send this link to the person; it works once, for 7 days.</p>
              <div class="row">
                <label
                  >Link <input id="new-link" class="secret" type="text" readonly value=${o.link.url}
                /></label>
                <button type="button" data-copy="new-link" data-status="copy-status" hidden>Copy</button>
              </div>
              <p role="status" id="copy-status"></p>
            </section>`
          : null
      }
      <${ErrorText} message=${o.error} />
      <h2>Create a user</h2>
      <form class="row" method="post" action="/admin/users">
        <${CsrfField} token=${ctx.csrf} />
        <label>Email <input type="email" name="email" required /></label>
        <label>Credits <input type="number" name="credits" min="0" placeholder="default" /></label>
        <label class="check"><input type="checkbox" name="admin" value="1" /> Administrator</label>
        <button type="submit">Create user</button>
      </form>
      <h2>Invite someone</h2>
      <form class="row" method="post" action="/admin/invites">
        <${CsrfField} token=${ctx.csrf} />
        <label>Invite email (optional) <input type="email" name="email" /></label>
        <button type="submit">Create invite link</button>
      </form>
      <h2>All users</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Credits</th>
              <th scope="col" class="hide-narrow">Created</th>
              <th scope="col">Status</th>
              <th scope="col"><span class="muted">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${o.users.map(
              ({ account: a, credits }) =>
                html`<tr>
                  <td>${a.email}</td>
                  <td>${a.admin ? 'admin' : 'user'}</td>
                  <td>${credits}</td>
                  <td class="hide-narrow">${fmtDate(a.created_at)}</td>
                  <td>
                    ${a.disabled_at ? `disabled ${fmtDate(a.disabled_at)}` : a.password_hash ? 'active' : 'invited'}
                  </td>
                  <td>
                    <form class="row" method="post" action=${`/admin/users/${a.id}/credits`}>
                      <${CsrfField} token=${ctx.csrf} />
                      <label
                        >Add credits for ${a.email} <input type="number" name="amount" min="1" required
                      /></label>
                      <button type="submit" class="secondary">Grant</button>
                    </form>
                    ${
                      a.disabled_at || a.id === ctx.account?.id
                        ? null
                        : html`<form class="inline" method="post" action=${`/admin/users/${a.id}/disable`}>
                            <${CsrfField} token=${ctx.csrf} />
                            <button type="submit" class="link">Disable ${a.email}</button>
                          </form>`
                    }
                  </td>
                </tr>`,
            )}
            ${(o.apiUsers ?? []).map((u) => ApiUserTableRow(u, ctx.csrf))}
          </tbody>
        </table>
      </div>
      ${
        o.apiUsers?.length
          ? html`<p class="muted">
              API only: users with API keys (from <code>sitehealth keys create</code> or the admin API) and no
              dashboard account. Their credits, checks and monitors are theirs like any user's.
            </p>`
          : null
      }`,
  )
}

function ApiUserTableRow(u: ApiUserRow & { credits: number }, csrf: string) {
  return html`<tr>
    <td>${u.user_id} <span class="muted">(no dashboard account)</span></td>
    <td>API only</td>
    <td>${u.credits}</td>
    <td class="hide-narrow">${fmtDate(u.since)}</td>
    <td>${u.activeKeys === 0 ? 'no active key' : `${u.activeKeys} active key${u.activeKeys === 1 ? '' : 's'}`}</td>
    <td>
      <form class="row" method="post" action="/admin/api-users/credits">
        <${CsrfField} token=${csrf} />
        <input type="hidden" name="user_id" value=${u.user_id} />
        <label>Add credits for ${u.user_id} <input type="number" name="amount" min="1" required /></label>
        <button type="submit" class="secondary">Grant</button>
      </form>
    </td>
  </tr>`
}

export function allKeysPage(ctx: PageContext, o: { keys: KeyRecord[]; owners: Map<string, string> }) {
  return Page(
    ctx,
    'All keys',
    html`<h1>All keys</h1>
      <p>
        Every API key on this server, from the dashboard, <code>sitehealth login</code> and the admin API.
      </p>
      <${KeysTable} keys=${o.keys} owners=${o.owners} revokeBase="/admin/keys" />`,
  )
}
