/**
 * Pagespeed without a browser: how fast and lean the HTML document itself is. Like a Lighthouse
 * category, the score is a weighted sum of audit scores (0..1), each audit one thing the probe
 * measured: server wait, full load, redirects, compression, transfer size, HTTP version. Caching of
 * the HTML is reported, not scored: Lighthouse's cache audit skips documents, and `no-cache` on HTML
 * is normal practice. Anything that is not an HTML page with a body is unavailable, not a zero.
 */
import { STATUS_CODES } from 'node:http'
import { logNormalScore } from '../lognormal.js'
import {
  DOCUMENT_LOAD_CURVE,
  PAGESPEED,
  PAGESPEED_POINTS,
  SERVER_WAIT_CURVE,
  TRANSFER_SIZE_CURVE,
} from '../thresholds.js'
import type { Finding, ProbeResult, Signal } from '../types.js'
import { fmtBytes, fmtDuration, hasResponse, hostOf, judged, plural, unavailable } from './format.js'

type AuditName = keyof typeof PAGESPEED_POINTS

interface Audit {
  /** 0..1, rounded to two decimals as Lighthouse does. */
  score: number
  value: number | string | boolean
  /** What to say when the audit loses points. */
  problem: string
}

export function pagespeed(probe: ProbeResult, _now: Date): Signal {
  const res = probe.response
  const host = hostOf(probe.finalUrl)
  if (!hasResponse(probe))
    return unavailable(`${host} gave no HTTP answer to measure`, { performanceScore: null })
  const mime = (res.contentType ?? '').split(';')[0].trim().toLowerCase()
  const why =
    res.status < 200 || res.status >= 300
      ? `${probe.finalUrl} answers ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd() + ', not a page'
      : !PAGESPEED.htmlTypes.includes(mime)
        ? `${probe.finalUrl} is ${mime ? `${mime}` : 'of no declared type'}, not an HTML page`
        : res.bodyBytesDecoded === 0
          ? `${probe.finalUrl} returned an empty body`
          : null
  if (why)
    return unavailable(`Performance not judged: ${why}`, {
      performanceScore: null,
      contentType: res.contentType,
      status: res.status,
    })

  const audits = runAudits(probe, mime)
  const points = (name: AuditName) => PAGESPEED_POINTS[name] * audits[name].score
  const score = Math.round((Object.keys(audits) as AuditName[]).reduce((sum, name) => sum + points(name), 0))

  const losses = (Object.keys(audits) as AuditName[])
    // like a Lighthouse audit, one scoring ≥ 0.9 passes: its few lost points show in details, not as a finding
    .filter((name) => audits[name].score < PAGESPEED.auditPass)
    .map((name) => ({ name, lost: PAGESPEED_POINTS[name] - points(name) }))
    .sort((a, b) => b.lost - a.lost)
  const findings: Finding[] = losses.map(({ name, lost }) => ({
    severity:
      lost >= PAGESPEED.mediumFindingPoints ? 'medium' : lost >= PAGESPEED.lowFindingPoints ? 'low' : 'info',
    message: audits[name].problem,
  }))
  findings.push({ severity: 'info', message: cachingNote(res.headers) })
  if (res.bodyTruncated)
    findings.push({ severity: 'info', message: `Body is larger than the read cap; sizes are lower bounds` })

  const lead = findings.find((f) => f.severity !== 'info')
  const http = res.httpVersion.startsWith('1') ? 'HTTP/1.1' : `HTTP/${res.httpVersion}`
  const message = lead
    ? `${lead.message} (performance ${score}/100)`
    : `Performance ${score}/100: the page's HTML arrives in ${fmtDuration(probe.timings.totalMs)}, ${fmtBytes(res.bodyBytesWire)}${audits.compression.value ? ` ${res.contentEncoding}-compressed` : ''} over ${http}`

  return judged(score, message, findings, {
    performanceScore: score,
    audits: Object.fromEntries(
      (Object.keys(audits) as AuditName[]).map((name) => [
        name,
        { value: audits[name].value, score: audits[name].score, weight: PAGESPEED_POINTS[name] },
      ]),
    ),
    contentType: res.contentType,
    contentEncoding: res.contentEncoding,
    bodyBytesWire: res.bodyBytesWire,
    bodyBytesDecoded: res.bodyBytesDecoded,
    bodyTruncated: res.bodyTruncated,
    httpVersion: res.httpVersion,
    caching: {
      cacheControl: res.headers['cache-control'] ?? null,
      etag: res.headers['etag'] ?? null,
      lastModified: res.headers['last-modified'] ?? null,
      expires: res.headers['expires'] ?? null,
    },
  })
}

function runAudits(probe: ProbeResult, mime: string): Record<AuditName, Audit> {
  const t = probe.timings
  const res = probe.response

  const hops = countedRedirects(probe)
  const encoding = res.contentEncoding?.toLowerCase()
  const compressed = !!encoding && encoding !== 'identity'
  const ratio = PAGESPEED.compressionSavings.find((c) => c.match.test(mime))?.ratio ?? 0
  const savings = compressed ? 0 : Math.round(res.bodyBytesDecoded * ratio)
  const h2 = !res.httpVersion.startsWith('1') || /\bh3\b/.test(res.headers['alt-svc'] ?? '')

  return {
    serverWait: {
      score: curve(t.serverWaitMs, SERVER_WAIT_CURVE),
      value: t.serverWaitMs,
      problem: `Server takes ${fmtDuration(t.serverWaitMs)} to start answering (aim for under ${fmtDuration(SERVER_WAIT_CURVE.p10)}); cache pages or speed up the backend`,
    },
    documentLoad: {
      score: curve(t.totalMs, DOCUMENT_LOAD_CURVE),
      value: t.totalMs,
      problem: `The page's HTML takes ${fmtDuration(t.totalMs)} to arrive in full (aim for under ${fmtDuration(DOCUMENT_LOAD_CURVE.p10)}); a faster server and a smaller, compressed document help`,
    },
    redirects: {
      score: Math.max(0, 1 - PAGESPEED.redirectHopCost * hops),
      value: hops,
      problem: `Redirect chain ${[...probe.redirects.map((h) => h.url), probe.finalUrl].join(' → ')} costs ${plural(hops, 'extra round trip')}; link straight to ${probe.finalUrl}`,
    },
    compression: {
      score: savings >= PAGESPEED.compressionMinSavingsBytes ? 0 : 1,
      value: compressed,
      problem: `HTML is sent uncompressed: ${fmtBytes(res.bodyBytesDecoded)} could shrink by about ${fmtBytes(savings)} with gzip or brotli`,
    },
    transferSize: {
      score: curve(res.bodyBytesWire, TRANSFER_SIZE_CURVE),
      value: res.bodyBytesWire,
      problem: `The HTML document is ${fmtBytes(res.bodyBytesWire)} on the wire (aim for under ${fmtBytes(TRANSFER_SIZE_CURVE.p10)}); move inline data and scripts out of it`,
    },
    httpVersion: {
      score: h2 ? 1 : 0,
      value: h2 ? (res.httpVersion.startsWith('1') ? 'h3 (alt-svc)' : `HTTP/${res.httpVersion}`) : 'HTTP/1.1',
      problem: 'Served over HTTP/1.1 only; enable HTTP/2 so the page and its assets share one connection',
    },
  }
}

/**
 * Redirect hops that cost a visitor time. One same-host http→https hop at the start is not counted
 * when the input was http: that is the redirect we want sites to have (scoring.md model).
 */
function countedRedirects(probe: ProbeResult): number {
  const [first] = probe.redirects
  if (!first) return 0
  try {
    const from = new URL(first.url)
    const to = new URL(first.location, first.url)
    const upgrade = from.protocol === 'http:' && to.protocol === 'https:' && from.hostname === to.hostname
    return probe.redirects.length - (upgrade ? 1 : 0)
  } catch {
    return probe.redirects.length
  }
}

function cachingNote(headers: Record<string, string>): string {
  const parts = [
    headers['cache-control'] ? `Cache-Control "${headers['cache-control']}"` : 'no Cache-Control',
    headers['etag'] ? 'ETag' : null,
    headers['last-modified'] ? 'Last-Modified' : null,
  ].filter(Boolean)
  return `HTML caching: ${parts.join(', ')} (reported, not scored: HTML is usually revalidated)`
}

/** A log-normal audit score rounded to two decimals (Lighthouse clampTo2Decimals). */
const curve = (value: number, c: { p10: number; median: number }) =>
  Math.round(logNormalScore(value, c) * 100) / 100
