/**
 * The dashboard's HTTP plumbing: security headers on every page, the session cookie, CSRF checks,
 * form bodies, redirects. Pages are HTML; errors are HTML too (never the API's JSON envelope).
 */
import { timingSafeEqual } from 'node:crypto'
import type { H3Event } from 'h3'
import { clientAddress } from '../http/client-address.js'
import { MAX_BODY_BYTES } from '../contract/routes.js'
import type { SignedIn } from '../accounts/index.js'
import { newToken } from '../accounts/index.js'
import { readCapped } from '../http/body.js'
import { PAGE_HEADERS } from '../http/page-headers.js'

export const SESSION_COOKIE = 'sh_session'
/** Signed-out forms (sign in, sign up) use a double-submit token in this cookie. */
export const CSRF_COOKIE = 'sh_csrf'

/** Every page's security headers: see ../http/page-headers.ts. */
export { PAGE_HEADERS }

export function htmlResponse(
  body: string,
  status = 200,
  extra: Headers | Record<string, string> = {},
): Response {
  const headers = new Headers({ ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8' })
  for (const [k, v] of extra instanceof Headers ? extra.entries() : Object.entries(extra))
    headers.append(k, v)
  return new Response(body, { status, headers })
}

/** 303 See Other after a form post (post/redirect/get), so a reload never re-submits. */
export function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ ...PAGE_HEADERS, location })
  for (const c of cookies) headers.append('set-cookie', c)
  return new Response(null, { status: 303, headers })
}

export function isSecure(event: H3Event, publicUrl?: string): boolean {
  return (publicUrl ?? event.url.href).startsWith('https:')
}

export function cookie(name: string, value: string, secure: boolean, maxAgeSec: number): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSec}${secure ? '; Secure' : ''}`
}

export function readCookie(event: H3Event, name: string): string | undefined {
  const header = event.req.headers.get('cookie') ?? ''
  for (const part of header.split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim()
  }
  return undefined
}

/** The client's address (the TCP peer, or as `--trust-proxy` says). */
export const clientOf = clientAddress

/**
 * A form body (urlencoded), capped like API bodies (read in chunks, so an oversized one is never
 * buffered whole). Anything else, or too large, reads as empty: the CSRF check then refuses it.
 */
export async function readForm(event: H3Event): Promise<URLSearchParams> {
  const type = event.req.headers.get('content-type') ?? ''
  if (!type.startsWith('application/x-www-form-urlencoded')) return new URLSearchParams()
  if (Number(event.req.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return new URLSearchParams()
  const bytes = await readCapped(event.req.body, MAX_BODY_BYTES)
  return new URLSearchParams(bytes === 'too_large' ? '' : (bytes?.toString('utf8') ?? ''))
}

const same = (a: string, b: string) =>
  a.length === b.length && a.length > 0 && timingSafeEqual(Buffer.from(a), Buffer.from(b))

export class CsrfError extends Error {}

/**
 * OWASP CSRF Prevention Cheat Sheet: a synchronizer token (per session; a double-submit cookie
 * before sign-in) plus, as defence in depth, Fetch Metadata / Origin verification.
 */
export function verifyCsrf(
  event: H3Event,
  form: URLSearchParams,
  signedIn: SignedIn | undefined,
  publicUrl: string | undefined,
): void {
  const site = event.req.headers.get('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none') throw new CsrfError('cross-site request')
  const origin = event.req.headers.get('origin')
  const allowed = new Set([event.url.origin, publicUrl ? new URL(publicUrl).origin : event.url.origin])
  if (origin && !allowed.has(origin)) throw new CsrfError('foreign origin')
  const sent = form.get('_csrf') ?? ''
  const expected = signedIn ? signedIn.session.csrf : (readCookie(event, CSRF_COOKIE) ?? '')
  if (!same(sent, expected)) throw new CsrfError('missing or wrong token')
}

/** The signed-out CSRF cookie: reuse the visitor's, else make one. */
export function preSessionToken(event: H3Event): { token: string; setCookie?: string; secureFlag?: boolean } {
  const existing = readCookie(event, CSRF_COOKIE)
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { token: existing }
  const token = newToken()
  return { token, setCookie: token }
}

/**
 * Where to go after sign-in: only a path of this site. The value is resolved as a browser would
 * resolve the Location header (the WHATWG URL parser, which drops tabs and newlines and reads `\`
 * as `/`) against our own origin, and kept only when it stays on that origin; what is sent back is
 * the parsed, percent-encoded path (always a valid header value, never `//host`). Anything else,
 * including values that cannot be parsed, is `/`.
 */
export function safeNext(next: string | null | undefined, origin = 'http://localhost'): string {
  // control characters and backslashes: browsers drop or rewrite them, so nothing they spell is kept
  // eslint-disable-next-line no-control-regex
  if (!next || next[0] !== '/' || /[\u0000-\u001f\u007f\\]/.test(next)) return '/'
  try {
    const base = new URL(origin)
    const url = new URL(next, base)
    if (url.origin !== base.origin || url.pathname.startsWith('//')) return '/'
    const kept = url.pathname + url.search + url.hash
    // lone surrogates and the like survive parsing as text; a header must be Latin-1
    return /^[\x21-\x7e]*$/.test(kept) ? kept : '/'
  } catch {
    return '/'
  }
}
