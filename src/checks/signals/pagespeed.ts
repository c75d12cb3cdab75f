/**
 * Pagespeed without a browser: an ESTIMATE (or, when the lab measured the page, Lighthouse's own
 * numbers with the estimate beside them: pagespeed-lab.ts) of Lighthouse's mobile performance score. The document
 * and its critical subresources (fetched by the probe, src/checks/perf/gather.ts) are played on
 * Lighthouse's simulated mobile link (src/checks/perf/), and the estimated first contentful paint,
 * largest contentful paint, speed index and total blocking time are scored with Lighthouse's
 * log-normal curves and weights. Cumulative layout shift cannot be seen without a browser: it is
 * assumed 0 (scored in full), as Lighthouse measures on most static pages.
 *
 * Server wait, redirects, compression and document size count once, through the simulation (the
 * old separate audits counted server wait three times). The message names the biggest real cost,
 * found by simulating the page without each cause (src/checks/perf/costs.ts). Caching of the HTML
 * is reported, not scored. Anything that is not an HTML page with a body is unavailable, not a zero.
 */
import { STATUS_CODES } from 'node:http'
import { estimate, METRIC_WEIGHTS, SIMULATED_MOBILE, type PageLoad } from '../perf/index.js'
import { rankCosts, SERVER_TARGET_MS, type Cost } from '../perf/costs.js'
import type { CriticalResource } from '../perf/types.js'
import { PAGESPEED } from '../thresholds.js'
import type { Finding, ProbeResult, Signal } from '../types.js'
import { withLab } from './pagespeed-lab.js'
import { excerpt, fmtBytes, fmtDuration, hasResponse, hostOf, judged, plural, unavailable } from './format.js'

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

  const load = pageLoadOf(probe)
  const observedMs = observedRenderMs(probe)
  const compressedBytes = compressionEstimate(probe, mime)
  const result = estimate(load, { observedMs })
  const score = result.score
  const costs = rankCosts(load, result, { observedMs, compressedBytes })

  const findings: Finding[] = costs.map((cost) => ({
    severity:
      cost.points >= PAGESPEED.mediumFindingPoints
        ? 'medium'
        : cost.points >= PAGESPEED.lowFindingPoints
          ? 'low'
          : 'info',
    message: `${describe(cost, probe, compressedBytes)} (about ${plural(cost.points, 'point')})`,
  }))
  const critical = probe.critical
  const skipped = critical?.resources.filter((r) => r.error !== null) ?? []
  if (skipped.length > 0 || (critical?.leftOut ?? 0) > 0)
    findings.push({
      severity: 'info',
      message: `Estimate leaves out ${plural(skipped.length + (critical?.leftOut ?? 0), 'subresource')} it could not or would not fetch${skipped[0] ? ` (${excerpt(fileName(skipped[0].url))}: ${excerpt(skipped[0].error ?? '', 60)})` : ''}`,
    })
  findings.push({ severity: 'info', message: cachingNote(res.headers) })
  if (res.bodyTruncated)
    findings.push({ severity: 'info', message: `Body is larger than the read cap; sizes are lower bounds` })

  const m = result.metrics
  const timings = `first paint ${fmtDuration(m.fcp)}, largest paint ${fmtDuration(m.lcp)} on a simulated mobile link`
  const lead = costs[0] && costs[0].points >= PAGESPEED.lowFindingPoints ? costs[0] : null
  const message = lead
    ? `${describe(lead, probe, compressedBytes)}: ${timings} (performance ${score}/100, estimated)`
    : `Performance ${score}/100 (estimated): ${timings}`

  const resources = load.resources
  const estimated = judged(score, message, findings, {
    performanceScore: score,
    link: {
      rttMs: SIMULATED_MOBILE.rttMs,
      throughputKbps: 1638.4,
      cpuSlowdown: SIMULATED_MOBILE.cpuSlowdown,
    },
    metrics: result.metrics,
    metricScores: result.scores,
    weights: METRIC_WEIGHTS,
    unmeasured: {
      tbt: 'estimated from script bytes: scripts are not run',
      cls: 'estimated from the markup: images without dimensions and inline scripts that insert content late; other shifts need a browser',
    },
    costs: costs.map((c) => ({ kind: c.kind, points: c.points })),
    subresources: critical
      ? {
          fetched: resources.filter((r) => r.fetched).length,
          requests: critical.requests,
          bytesRead: critical.bytesRead,
          elapsedMs: critical.elapsedMs,
          leftOut: critical.leftOut + skipped.length,
          bound: critical.bound,
          renderBlocking: sum(resources.filter((r) => r.fetched && r.renderBlocking)),
          images: sum(resources.filter((r) => r.fetched && r.kind === 'image')),
          fonts: sum(resources.filter((r) => r.fetched && r.kind === 'font')),
          scripts: sum(resources.filter((r) => r.fetched && r.kind === 'script')),
        }
      : null,
    redirects: probe.redirects.length,
    serverWaitMs: probe.timings.serverWaitMs,
    contentType: res.contentType,
    contentEncoding: res.contentEncoding,
    bodyBytesWire: res.bodyBytesWire,
    bodyBytesDecoded: res.bodyBytesDecoded,
    bodyTruncated: res.bodyTruncated,
    httpVersion: res.httpVersion,
    caching: {
      cacheControl: bounded(res.headers['cache-control']),
      etag: bounded(res.headers['etag']),
      lastModified: bounded(res.headers['last-modified']),
      expires: bounded(res.headers['expires']),
    },
  })
  return withLab(estimated, probe.lab)
}

/** The probe's findings as the simulator's input. */
export function pageLoadOf(probe: ProbeResult): PageLoad {
  return {
    redirects: probe.redirects.map((h) => h.url),
    document: {
      url: probe.finalUrl,
      h2: probe.response.httpVersion === '2',
      wireBytes: probe.response.bodyBytesWire,
      decodedBytes: probe.response.bodyBytesDecoded,
      serverMs: probe.timings.serverWaitMs,
    },
    resources: probe.critical?.resources ?? [],
    ...(probe.timings.connectMs !== null ? { realRttMs: probe.timings.connectMs } : {}),
    lateInserts: probe.page?.scripts.filter((s) => s.insertsLate).length ?? 0,
    lateInsertPx: (probe.page?.scripts ?? []).filter((s) => s.insertsLate).map((s) => s.insertPx ?? null),
    ...(probe.page?.emptyMount ? { scriptMount: probe.page.emptyMount } : {}),
    busyInlineScripts: (probe.page?.scripts ?? [])
      .filter((s) => s.src === null && ((s.busyLoopIterations ?? 0) > 0 || (s.busyMs ?? 0) > 0))
      .map((s) => ({
        module: s.module,
        iterations: s.busyLoopIterations ?? 0,
        ...(s.busyMs ? { busyMs: s.busyMs } : {}),
        ...(s.laterLoopIterations ? { laterIterations: s.laterLoopIterations } : {}),
        ...(s.laterBusyMs ? { laterBusyMs: s.laterBusyMs } : {}),
      })),
  }
}

/** Real time to a first render on our own link: the document, then its slowest blocking resource. */
function observedRenderMs(probe: ProbeResult): number {
  const blocking = (probe.critical?.resources ?? []).filter((r) => r.fetched && r.renderBlocking)
  return probe.timings.totalMs + Math.max(0, ...blocking.map((r) => r.realMs ?? 0))
}

/** What the document would weigh compressed, when it is sent raw and gzip would save enough (DevTools' estimate). */
function compressionEstimate(probe: ProbeResult, mime: string): number | null {
  const res = probe.response
  const encoding = res.contentEncoding?.toLowerCase()
  if (encoding && encoding !== 'identity') return null
  const ratio = PAGESPEED.compressionSavings.find((c) => c.match.test(mime))?.ratio ?? 0
  const savings = Math.round(res.bodyBytesDecoded * ratio)
  return savings >= PAGESPEED.compressionMinSavingsBytes ? res.bodyBytesWire - savings : null
}

function describe(cost: Cost, probe: ProbeResult, compressedBytes: number | null): string {
  const list = (n = 3) =>
    cost.resources
      .slice(0, n)
      .map((r) => `${excerpt(fileName(r.url))} ${fmtBytes(r.wireBytes)}`)
      .join(', ') + (cost.resources.length > n ? ', …' : '')
  const total = fmtBytes(cost.resources.reduce((s, r) => s + r.wireBytes, 0))
  const res = probe.response
  switch (cost.kind) {
    case 'render-blocking':
      return `${plural(cost.resources.length, 'render-blocking resource')} (${total}: ${list()}) ${cost.resources.length === 1 ? 'holds' : 'hold'} back the first paint; inline the critical CSS, defer scripts`
    case 'images':
      return `Images weigh ${total} (${list()}); resize and compress them (WebP/AVIF), lazy-load those below the first screen`
    case 'lazy-lcp':
      return `The likely largest image ${excerpt(fileName(cost.resources[0].url))} is loading="lazy", so it starts only after layout; load it eagerly`
    case 'fonts':
      return `${plural(cost.resources.length, 'web font')} (${total}: ${list()}) are found only once the stylesheets are in, and the text's paint waits for them; preload them, or use fewer`
    case 'scripts': {
      // the CPU runs what was decoded, so the sizes here are decoded ones
      const code = [...cost.resources].sort((a, b) => b.decodedBytes - a.decodedBytes)
      const named = code
        .slice(0, 3)
        .map((r) => `${excerpt(fileName(r.url))} ${fmtBytes(r.decodedBytes)}`)
        .join(', ')
      const loops = pageLoopWork(probe, cost.resources, 'busyLoopIterations')
      const busy = pageLoopWork(probe, cost.resources, 'busyMs')
      const what =
        code.length > 0
          ? `Scripts (${fmtBytes(code.reduce((sum, r) => sum + r.decodedBytes, 0))} of code: ${named}${code.length > 3 ? ', …' : ''})`
          : 'Inline scripts'
      const read = [
        loops > 0 ? `about ${fmtTurns(loops)} turns` : null,
        busy > 0 ? `${fmtDuration(busy)} spinning on the clock` : null,
      ].filter((p) => p !== null)
      return read.length > 0
        ? `${what} run long loops (${read.join(' and ')}, read from their code) and keep a phone's main thread busy; break the work up or move it off the main thread`
        : `${what} keep a phone's main thread busy; ship less JavaScript or split it`
    }
    case 'layout-shift': {
      const images = cost.resources.length
      const parts = [
        images > 0 ? `${plural(images, 'first-screen image')} without width and height` : null,
        (probe.page?.scripts.some((s) => s.insertsLate) ?? false)
          ? 'an inline script that inserts content at the top after the page has painted'
          : null,
        (probe.page?.emptyMount?.textCharsAfter ?? 0) > 0 ||
        (probe.page?.emptyMount?.sizedImagesAfter?.length ?? 0) > 0
          ? 'content scripts render into an empty container above the text'
          : null,
      ].filter(Boolean)
      return `Likely layout shift: ${parts.join(' and ')} ${parts.length > 1 || images > 1 ? 'move' : 'moves'} the page as it loads; set width and height, reserve space for late content`
    }
    case 'redirects':
      return `Redirect chain ${[...probe.redirects.map((h) => excerpt(h.url, 60)), excerpt(probe.finalUrl, 60)].join(' → ')} costs ${plural(probe.redirects.length, 'extra round trip')}; link straight to the final URL`
    case 'server':
      return `Server takes ${fmtDuration(probe.timings.serverWaitMs)} to start answering (aim for under ${fmtDuration(SERVER_TARGET_MS)}); cache pages or speed up the backend`
    case 'compression':
      return `HTML is sent uncompressed: ${fmtBytes(res.bodyBytesDecoded)} would be about ${fmtBytes(compressedBytes ?? 0)} with gzip or brotli`
    case 'document-size':
      return `The HTML document is ${fmtBytes(res.bodyBytesWire)} on the wire; move inline data, styles and scripts out of it`
  }
}

/**
 * A loop work field (page/script-scan.ts LoopWork) summed over the page's scripts, external and
 * inline: `busyLoopIterations` the turns of long counted loops, `busyMs` the ms of loops bounded by
 * elapsed time.
 */
function pageLoopWork(
  probe: ProbeResult,
  scripts: CriticalResource[],
  field: 'busyLoopIterations' | 'busyMs',
): number {
  const inline = (probe.page?.scripts ?? []).filter((s) => s.src === null)
  return [...scripts, ...inline].reduce((sum, r) => sum + (r[field] ?? 0), 0)
}

const fmtTurns = (n: number) =>
  n >= 1e9 ? `${(n / 1e9).toFixed(1)} billion` : `${Math.round(n / 1e6)} million`

function fileName(url: string): string {
  try {
    const u = new URL(url)
    const last = u.pathname.split('/').filter(Boolean).pop()
    return last ? decodeURIComponentSafe(last) : u.host
  } catch {
    return url
  }
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

const sum = (list: { wireBytes: number }[]) => ({
  count: list.length,
  bytes: list.reduce((s, r) => s + r.wireBytes, 0),
})

const bounded = (value: string | undefined) => (value === undefined ? null : value.slice(0, 200))

function cachingNote(headers: Record<string, string>): string {
  const parts = [
    headers['cache-control'] ? `Cache-Control ${excerpt(headers['cache-control'])}` : 'no Cache-Control',
    headers['etag'] ? 'ETag' : null,
    headers['last-modified'] ? 'Last-Modified' : null,
  ].filter(Boolean)
  return `HTML caching: ${parts.join(', ')} (reported, not scored: HTML is usually revalidated)`
}
