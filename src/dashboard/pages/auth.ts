/** Signed-out pages: sign in, sign up, an invite or set-password link, and plain messages. */
import { CsrfField, ErrorText, Page, type PageContext } from './layout.js'
import { html } from './html.js'
import { MIN_PASSWORD_LENGTH } from '../../accounts/index.js'

export function signInPage(
  ctx: PageContext,
  o: { email?: string; error?: string; notice?: string; next?: string; signupOpen: boolean },
) {
  return Page(
    ctx,
    'Sign in',
    html`<div class="narrow">
      <h1>Sign in</h1>
      ${o.notice ? html`<p role="status" class="notice">${o.notice}</p>` : null}
      <${ErrorText} message=${o.error} />
      <form class="stack" method="post" action="/sign-in">
        <${CsrfField} token=${ctx.csrf} />
        ${o.next && o.next !== '/' ? html`<input type="hidden" name="next" value=${o.next} />` : null}
        <label
          >Email
          <input
            type="email"
            name="email"
            autocomplete="username"
            required
            value=${o.email ?? ''}
            aria-invalid=${o.error ? 'true' : undefined}
            aria-describedby=${o.error ? 'form-error' : undefined}
          />
        </label>
        <label
          >Password
          <input
            type="password"
            name="password"
            autocomplete="current-password"
            required
            aria-invalid=${o.error ? 'true' : undefined}
            aria-describedby=${o.error ? 'form-error' : undefined}
          />
        </label>
        <div><button type="submit">Sign in</button></div>
      </form>
      ${o.signupOpen ? html`<p>No account yet? <a href="/sign-up">Sign up</a>.</p>` : null}
    </div>`,
  )
}

export function signUpPage(
  ctx: PageContext,
  o: {
    email?: string
    error?: string
    action: string
    fixedEmail?: string | null
    title?: string
    button?: string
  },
) {
  const title = o.title ?? 'Create an account'
  return Page(
    ctx,
    title,
    html`<div class="narrow">
      <h1>${title}</h1>
      <${ErrorText} message=${o.error} />
      <form class="stack" method="post" action=${o.action}>
        <${CsrfField} token=${ctx.csrf} />
        <label
          >Email
          <input
            type="email"
            name="email"
            autocomplete="username"
            required
            value=${o.fixedEmail ?? o.email ?? ''}
            readonly=${o.fixedEmail ? true : undefined}
          />
        </label>
        <label
          >Password
          <input
            type="password"
            name="password"
            autocomplete="new-password"
            required
            minlength=${MIN_PASSWORD_LENGTH}
            aria-describedby="pw-hint"
            aria-invalid=${o.error ? 'true' : undefined}
          />
        </label>
        <p id="pw-hint" class="muted">
          At least ${MIN_PASSWORD_LENGTH} characters. A passphrase of a few words works well.
        </p>
        <div><button type="submit">${o.button ?? 'Create account'}</button></div>
      </form>
      <p>Have an account? <a href="/">Sign in</a>.</p>
    </div>`,
  )
}

export function messagePage(ctx: PageContext, title: string, message: string) {
  return Page(
    ctx,
    title,
    html`<h1>${title}</h1>
      <p>${message}</p>
      <p><a href="/">Back to the start</a></p>`,
  )
}
