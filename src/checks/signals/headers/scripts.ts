/**
 * Subresource Integrity on the page's `<script src>` (W3C SRI; graded as the MDN HTTP Observatory's
 * subresource-integrity test). A script is third-party when its site (registrable domain, by the
 * Public Suffix List with private suffixes, as browsers define "same site") differs from the
 * page's; a third-party script without `integrity` runs whatever that other site serves. Inert
 * scripts (JSON, templates) and `nomodule` ones (never fetched by current browsers) are skipped.
 */
import { getDomain } from 'tldts'
import { SECURITY_HEADERS } from '../../thresholds.js'
import type { PageInfo } from '../../page/types.js'
import { plural, shortUrl } from '../format.js'
import type { Grade } from './grade.js'

const M = SECURITY_HEADERS.modifiers

export interface SriResult {
  scripts: number
  thirdParty: number
  withoutIntegrity: number
  overHttp: number
  /** Third-party scripts lacking integrity or loaded over http (at most maxScriptsListed, URLs shortened). */
  flagged: string[]
}

export function judgeSri(page: PageInfo | null, finalUrl: string, g: Grade): SriResult | null {
  if (!page) return null
  const site = siteOf(finalUrl)
  const scripts = page.scripts.filter(
    (s) => s.src !== null && !s.inert && !s.nomodule && /^https?:$/.test(safeProtocol(s.src)),
  )
  const thirdParty = scripts.filter((s) => siteOf(s.src!) !== site)
  const result: SriResult = {
    scripts: scripts.length,
    thirdParty: thirdParty.length,
    withoutIntegrity: 0,
    overHttp: 0,
    flagged: [],
  }
  if (scripts.length === 0) return result

  const withIntegrity = (s: (typeof scripts)[number]) => (s.integrity ?? '').trim() !== ''
  const noSri = thirdParty.filter((s) => !withIntegrity(s))
  const http = thirdParty.filter((s) => safeProtocol(s.src!) === 'http:')
  result.withoutIntegrity = noSri.length
  result.overHttp = http.length
  result.flagged = [...new Set([...http, ...noSri].map((s) => shortUrl(s.src!, 100)))].slice(
    0,
    SECURITY_HEADERS.maxScriptsListed,
  )

  const first = (list: typeof scripts) => shortUrl(list[0].src!, 60)
  const more = (list: typeof scripts) => (list.length > 1 ? ` and ${list.length - 1} more` : '')
  const httpNoSri = http.filter((s) => !withIntegrity(s))
  if (httpNoSri.length > 0) {
    g.note(
      'high',
      `${plural(httpNoSri.length, 'third-party script')} load over plain http without integrity (${first(httpNoSri)}${more(httpNoSri)}): anyone on the network can change them; load them over https with an integrity attribute`,
      M.sriMissingExternalHttp,
    )
  } else if (http.length > 0) {
    g.note(
      'medium',
      `${plural(http.length, 'third-party script')} load over plain http (${first(http)}${more(http)}); load them over https`,
      M.sriExternalHttp,
    )
  } else if (noSri.length > 0) {
    g.note(
      'low',
      `${plural(noSri.length, 'third-party script')} without Subresource Integrity (${first(noSri)}${more(noSri)}): if that host is compromised, its code runs in your pages; add integrity and crossorigin attributes`,
      M.sriMissingExternal,
    )
  } else if (thirdParty.length > 0) {
    g.add(M.sriExternal)
  } else if (scripts.some(withIntegrity)) {
    g.add(M.sriAll)
  }
  return result
}

/** Registrable domain with private suffixes (github.io sites are separate), or the host for IPs. */
function siteOf(url: string): string {
  try {
    const host = new URL(url).hostname
    return getDomain(host, { allowPrivateDomains: true }) ?? host
  } catch {
    return url
  }
}

function safeProtocol(url: string): string {
  try {
    return new URL(url).protocol
  } catch {
    return ''
  }
}
