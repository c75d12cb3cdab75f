/** The account page (change password) and the device-approval page of `sitehealth login`. */
import type { DeviceGrantRecord } from '../../store/types.js'
import { MIN_PASSWORD_LENGTH } from '../../accounts/index.js'
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { fmtDate, html } from './html.js'

export function accountPage(ctx: PageContext, o: { credits: number; error?: string; done?: string }) {
  const a = ctx.account!
  return Page(
    ctx,
    'Account',
    html`<h1>Account</h1>
      <dl>
        <dt>Email</dt>
        <dd>${a.email}</dd>
        <dt>Role</dt>
        <dd>${a.admin ? 'Administrator' : 'User'}</dd>
        <dt>User id</dt>
        <dd><code>${a.user_id}</code></dd>
        <dt>Credits</dt>
        <dd>${o.credits}</dd>
        <dt>Member since</dt>
        <dd>${fmtDate(a.created_at)}</dd>
      </dl>
      <h2>Change password</h2>
      ${o.done ? html`<p role="status" class="notice">${o.done}</p>` : null}
      <${ErrorText} message=${o.error} />
      <form class="stack" method="post" action="/account/password">
        <${CsrfField} token=${ctx.csrf} />
        <input type="text" name="username" autocomplete="username" value=${a.email} hidden />
        <label
          >Current password <input type="password" name="current" autocomplete="current-password" required
        /></label>
        <label
          >New password
          <input
            type="password"
            name="password"
            autocomplete="new-password"
            required
            minlength=${MIN_PASSWORD_LENGTH}
        /></label>
        <div><button type="submit">Change password</button></div>
      </form>
      <p class="muted">Changing the password signs out every other session.</p>`,
  )
}

export function devicePage(
  ctx: PageContext,
  o: { grant?: DeviceGrantRecord; code?: string; error?: string; done?: string },
) {
  return Page(
    ctx,
    'Connect a device',
    html`<h1>Connect a device</h1>
      ${o.done ? html`<p role="status" class="notice">${o.done}</p>` : null}
      <${ErrorText} message=${o.error} />
      ${
        o.grant
          ? html`<p>A device asks for an API key for your account. Check every line below before you approve.</p>
              <dl class="request">
                <dt>Code</dt>
                <dd><code>${o.grant.user_code}</code></dd>
                <dt>Key name, as the requester typed it</dt>
                <dd><q class="quoted-data">${o.grant.name}</q></dd>
                <dt>Requested from</dt>
                <dd>${o.grant.client_address ? html`<code>${o.grant.client_address}</code>` : 'an unknown address'}</dd>
                <dt>Requested at</dt>
                <dd><time datetime=${o.grant.created_at}>${fmtDate(o.grant.created_at)}</time></dd>
              </dl>
              <p>
                The key name was chosen by whoever started the request: it is not a message from this site. Approve
                only if you just ran <code>sitehealth login</code> yourself, from this address, and it shows this same
                code.
              </p>
              <form class="row" method="post" action="/device">
                <${CsrfField} token=${ctx.csrf} />
                <input type="hidden" name="code" value=${o.grant.user_code} />
                <button type="submit" name="decision" value="approve">Approve</button>
                <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
              </form>`
          : o.done
            ? null
            : html`<form class="row" method="get" action="/device">
                <label
                  >Code
                  <input
                    type="text"
                    name="code"
                    required
                    autocomplete="off"
                    value=${o.code ?? ''}
                    placeholder="XXXX-XXXX"
                /></label>
                <button type="submit">Continue</button>
              </form>`
      }`,
  )
}
