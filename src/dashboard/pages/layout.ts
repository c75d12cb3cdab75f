import type { AccountRecord } from '../../store/types.js'
import { html, type Node } from './html.js'

export interface PageContext {
  /** The signed-in account, or undefined on signed-out pages. */
  account?: AccountRecord
  csrf: string
  /** Logical asset name -> URL. */
  asset: (name: string) => string | undefined
  path: string
}

/** How often a page that asks for it refreshes its live parts while open (app.ts). */
export const REFRESH_SECONDS = 15

const NAV: Array<[string, string]> = [
  ['/', 'Overview'],
  ['/checks', 'Checks'],
  ['/monitors', 'Monitors'],
  ['/maintenance', 'Maintenance'],
  ['/status-pages', 'Status pages'],
  ['/keys', 'API keys'],
  ['/account', 'Account'],
]
const ADMIN_NAV: Array<[string, string]> = [
  ['/admin/users', 'Users'],
  ['/admin/keys', 'All keys'],
]

function current(path: string, href: string) {
  return href === '/' ? path === '/' : path === href || path.startsWith(href + '/')
}

export function CsrfField({ token }: { token: string }) {
  return html`<input type="hidden" name="_csrf" value=${token} />`
}

export function Page(
  ctx: PageContext,
  title: string,
  body: Node,
  opts: { scripts?: string[]; styles?: string[]; refresh?: boolean } = {},
): Node {
  const links = [...(ctx.account?.admin ? [...NAV, ...ADMIN_NAV] : NAV)]
  const styles = ['app.css', ...(opts.styles ?? [])].map(ctx.asset).filter(Boolean)
  const scripts = ['app.js', ...(opts.scripts ?? [])].map(ctx.asset).filter(Boolean)
  return html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light dark" />
      <link rel="icon" href="data:," />
      <title>${title} · sitehealth</title>
      ${styles.map((href) => html`<link rel="stylesheet" href=${href} />`)}
      ${scripts.map((src) => html`<script type="module" src=${src}></script>`)}
    </head>
    <body data-refresh=${opts.refresh ? String(REFRESH_SECONDS) : undefined}>
      <a class="skip" href="#main">Skip to content</a>
      <header>
        <div class="bar">
          <a class="brand" href="/">sitehealth</a>
          ${
            ctx.account &&
            html`<nav aria-label="Main">
                <ul>
                  ${links.map(
                    ([href, label]) =>
                      html`<li>
                        <a href=${href} aria-current=${current(ctx.path, href) ? 'page' : undefined}
                          >${label}</a
                        >
                      </li>`,
                  )}
                </ul>
              </nav>
              <form class="inline" method="post" action="/sign-out">
                <${CsrfField} token=${ctx.csrf} />
                <button type="submit" class="secondary">Sign out</button>
              </form>`
          }
        </div>
      </header>
      <main id="main">${body}</main>
    </body>
  </html>`
}

export function ErrorText({ message, id = 'form-error' }: { message?: string; id?: string }) {
  return message ? html`<p class="error" role="alert" id=${id}>${message}</p>` : null
}
