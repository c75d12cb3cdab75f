/**
 * The security headers of every HTML page this server sends (the dashboard's pages, and the
 * privacy pair on `/docs`). They live here, below the dashboard, so the API's app can use them
 * without importing the dashboard (docs/architecture.md).
 *
 * Every header our own security_headers signal asks for, so a check of the dashboard scores ok:
 * a CSP without inline scripts or styles (default-src 'none', only our own hashed files), HSTS
 * (ignored by browsers on plain http, right behind a TLS proxy), nosniff, no framing, a private
 * referrer policy (same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on
 * form posts, which the CSRF check needs), and no powerful features.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'strict-transport-security': 'max-age=31536000',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
}
