/**
 * X-Content-Type-Options, X-Frame-Options, Referrer-Policy and Permissions-Policy, read as browsers
 * read them. A value a browser ignores counts exactly as the header being absent (issue 11).
 */
import { SECURITY_HEADERS } from '../../thresholds.js'
import type { PageInfo } from '../../page/types.js'
import type { ProbeResponse } from '../../types.js'
import { excerpt } from '../format.js'
import { headerLines, headerValues, type Grade } from './grade.js'

const M = SECURITY_HEADERS.modifiers

/** Fetch "determine nosniff": only the first value of the combined header counts, case-insensitively. */
export function judgeContentTypeOptions(response: ProbeResponse, g: Grade) {
  const values = headerValues(response, 'x-content-type-options')
  if (values.length === 0 || values.every((v) => v === ''))
    return g.lack('x-content-type-options', M.xctoMissing)
  if (values[0].toLowerCase() === 'nosniff') return
  g.ignore(
    'x-content-type-options',
    'first value is not nosniff',
    M.xctoMissing,
    `X-Content-Type-Options is ${excerpt(values[0])}, which browsers ignore (only nosniff means anything), the same as no header; send exactly nosniff`,
  )
}

/**
 * HTML Standard, X-Frame-Options processing: an enforced CSP frame-ancestors (header only) wins;
 * else the lowercased set of values: one `deny`/`sameorigin` protects; several different values
 * that include deny, sameorigin or allowall block framing altogether (so two identical
 * SAMEORIGIN lines protect, and so does a conflict); anything else (ALLOW-FROM, ALLOWALL, typos)
 * is ignored.
 */
export function judgeFrameOptions(
  response: ProbeResponse,
  csp: { frameAncestors: boolean; frameAncestorsProtects: boolean },
  g: Grade,
) {
  if (csp.frameAncestors) {
    if (csp.frameAncestorsProtects) return g.add(M.xfoViaCsp)
    // frame-ancestors makes browsers skip X-Frame-Options even when it allows everyone
    return g.ignore(
      'x-frame-options',
      'CSP frame-ancestors allows any site',
      M.xfoMissing,
      `CSP frame-ancestors allows any site to frame the pages, and browsers then ignore X-Frame-Options; use frame-ancestors 'self' (or 'none')`,
    )
  }
  const values = headerValues(response, 'x-frame-options').filter((v) => v !== '')
  if (values.length === 0) return g.lack('x-frame-options', M.xfoMissing)
  const set = new Set(values.map((v) => v.toLowerCase()))
  const known = ['deny', 'sameorigin', 'allowall'].some((v) => set.has(v))
  if (set.size > 1 && known) {
    if (headerLines(response, 'x-frame-options').length > 1)
      g.note('info', 'X-Frame-Options is sent with conflicting values; browsers then refuse all framing')
    return g.add(M.xfoGood)
  }
  if (set.size === 1 && (set.has('deny') || set.has('sameorigin'))) return g.add(M.xfoGood)
  const first = values[0]
  const allowFrom = /^allow-from\b/i.test(first)
  g.ignore(
    'x-frame-options',
    allowFrom ? 'ALLOW-FROM is ignored by current browsers' : 'invalid value',
    M.xfoMissing,
    allowFrom
      ? 'X-Frame-Options ALLOW-FROM is ignored by current browsers, so pages can be framed as if the header were absent; use CSP frame-ancestors instead'
      : `X-Frame-Options ${excerpt(first)} is not a value browsers know, so pages can be framed as if the header were absent; use DENY or SAMEORIGIN (or CSP frame-ancestors)`,
  )
}

const REFERRER_PRIVATE = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']
const REFERRER_UNSAFE = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade']
const REFERRER_POLICIES = new Set([...REFERRER_PRIVATE, ...REFERRER_UNSAFE])
/** HTML Standard, meta name=referrer: legacy keywords map to policies. */
const META_LEGACY: Record<string, string> = {
  never: 'no-referrer',
  default: 'strict-origin-when-cross-origin',
  always: 'unsafe-url',
  'origin-when-crossorigin': 'origin-when-cross-origin',
}

export interface ReferrerResult {
  policy: string | null
  from: 'header' | 'meta' | null
}

/**
 * W3C Referrer Policy: the header's last value browsers know wins (§8.1 "parse a referrer policy
 * from a Referrer-Policy header"); then every `<meta name="referrer">` with a valid value replaces
 * the document's policy (HTML Standard), so the last valid one wins over the header.
 */
export function judgeReferrer(response: ProbeResponse, page: PageInfo | null, g: Grade): ReferrerResult {
  const values = headerValues(response, 'referrer-policy').filter((v) => v !== '')
  let policy: string | null = null
  let from: ReferrerResult['from'] = null
  for (const v of values) {
    if (REFERRER_POLICIES.has(v.toLowerCase())) {
      policy = v.toLowerCase()
      from = 'header'
    }
  }
  for (const content of page?.metaReferrer ?? []) {
    const v = content.trim().toLowerCase()
    const mapped = META_LEGACY[v] ?? v
    if (REFERRER_POLICIES.has(mapped)) {
      policy = mapped
      from = 'meta'
    }
  }

  if (policy === null) {
    if (values.length === 0) g.lack('referrer-policy', M.referrerMissing)
    else
      g.ignore(
        'referrer-policy',
        'no value browsers know',
        M.referrerMissing,
        `Referrer-Policy ${excerpt(values.join(', '))} is not a policy browsers know, so they ignore it (the same as no header); use strict-origin-when-cross-origin`,
      )
    return { policy, from }
  }
  if (REFERRER_PRIVATE.includes(policy)) {
    g.add(M.referrerPrivate)
    return { policy, from }
  }
  const where = from === 'meta' ? ' (set by <meta name="referrer">)' : ''
  g.weaken(
    'referrer-policy',
    `${policy} leaks page URLs to other sites${where}`,
    M.referrerUnsafe,
    'low',
    `Referrer-Policy ${policy}${where} leaks page URLs to other sites; use strict-origin-when-cross-origin`,
  )
  return { policy, from }
}

export function judgePermissionsPolicy(response: ProbeResponse, g: Grade) {
  if (!response.headers['permissions-policy']?.trim()) g.lack('permissions-policy', M.permissionsMissing)
}
