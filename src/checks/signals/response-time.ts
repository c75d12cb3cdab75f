/**
 * Response time: time to first byte of the final response as a visitor's browser would feel it
 * (DNS, connect, TLS and redirects included, the web-vitals TTFB definition), scored on a log-normal
 * curve through the web-vitals thresholds. A slow answer names the phase that cost the most.
 */
import { logNormalPercent } from '../lognormal.js'
import { TTFB_CURVE } from '../thresholds.js'
import type { Finding, ProbeResult, Signal } from '../types.js'
import { fmtDuration, hasResponse, hostOf, judged, plural, unavailable } from './format.js'

export function responseTime(probe: ProbeResult, _now: Date): Signal {
  const t = probe.timings
  const phases = phaseBreakdown(probe)
  const details = {
    ttfbMs: round1(t.ttfbMs),
    totalMs: round1(t.totalMs),
    dnsMs: t.dnsMs,
    connectMs: t.connectMs,
    tlsMs: t.tlsMs,
    serverWaitMs: t.serverWaitMs,
    redirectMs: phases.find((p) => p.key === 'redirects')?.ms ?? 0,
    redirectCount: probe.redirects.length,
  }
  if (!hasResponse(probe))
    return unavailable(`${hostOf(probe.inputUrl)} gave no HTTP answer to time`, details)

  const ttfb = t.ttfbMs
  const score = logNormalPercent(ttfb, TTFB_CURVE)
  const findings: Finding[] = []
  const target = `aim for under ${fmtDuration(TTFB_CURVE.p10)}`

  if (ttfb > TTFB_CURVE.p10) {
    const largest = phases.reduce((a, b) => (b.ms > a.ms ? b : a), phases[0])
    const where =
      largest && largest.ms > 0 ? `; the largest part is ${largest.label} (${fmtDuration(largest.ms)})` : ''
    findings.push({
      severity: ttfb > TTFB_CURVE.median ? 'high' : 'medium',
      message: `Slow first byte: ${fmtDuration(ttfb)} (${target})${where}`,
    })
  }
  const measured = phases.filter((p) => p.ms > 0).map((p) => `${p.short} ${fmtDuration(p.ms)}`)
  findings.push({
    severity: 'info',
    message: `Full response in ${fmtDuration(t.totalMs)}${measured.length > 0 ? ` (${measured.join(', ')})` : ''}`,
  })

  const message =
    findings[0].severity === 'info'
      ? `Fast first byte: ${fmtDuration(ttfb)} (under ${fmtDuration(TTFB_CURVE.p10)})`
      : findings[0].message
  return judged(score, message, findings, { ...details, score })
}

interface Phase {
  key: 'dns' | 'connect' | 'tls' | 'server' | 'redirects'
  label: string
  short: string
  ms: number
}

/** Where the time to first byte went; redirects are what is left once the final hop's phases are counted. */
function phaseBreakdown(probe: ProbeResult): Phase[] {
  const t = probe.timings
  const phases: Phase[] = [
    { key: 'dns', label: 'the DNS lookup', short: 'DNS', ms: t.dnsMs ?? 0 },
    { key: 'connect', label: 'connecting to the server', short: 'connect', ms: t.connectMs ?? 0 },
    { key: 'tls', label: 'the TLS handshake', short: 'TLS', ms: t.tlsMs ?? 0 },
    { key: 'server', label: 'waiting for the server', short: 'server', ms: t.serverWaitMs },
  ]
  if (probe.redirects.length > 0) {
    const counted = phases.reduce((sum, p) => sum + p.ms, 0)
    const n = probe.redirects.length
    phases.push({
      key: 'redirects',
      label: `following ${plural(n, 'redirect')}`,
      short: plural(n, 'redirect'),
      ms: round1(Math.max(0, t.ttfbMs - counted)),
    })
  }
  return phases
}

const round1 = (ms: number) => Math.round(ms * 10) / 10
