/**
 * tls monitors: the certificate a host serves on a port, directly or after STARTTLS (smtp, imap,
 * pop3). Up when the handshake completes and the chain is valid for the host, as the HTTP check
 * judges it (the engine's own TLS code: checks/endpoint/tls.ts); an expired, self-signed,
 * wrong-name or untrusted certificate is a failed run with the reason. Each run carries
 * `days_left`, `issuer` and `protocol`; `certificate.expiring` fires at 21, 7 and 1 days as for
 * http monitors (rules.ts). Made and recorded as every type that watches a host (endpoint.ts).
 */
import { probeTls } from '../../checks/index.js'
import { TIMEOUT_SECONDS, tlsPortOf } from '../../contract/monitor-target.js'
import { MONITOR_TYPE_FACES } from '../../contract/monitor-types/index.js'
import type { MonitorRecord } from '../../store/monitors.js'
import { DomainError } from '../../shared/index.js'
import { failedProbe, hostMonitor, retarget, runProbe, type ProbeEnd } from './endpoint.js'
import { http } from './http.js'
import { DNS_PING_FIELDS, refuseForeign, type MonitorKind } from './kind.js'

const face = MONITOR_TYPE_FACES.tls

export const tls: MonitorKind = {
  type: 'tls',
  paid: true,

  create(body, n) {
    if (body.type !== 'tls') throw new DomainError('invalid', 'Not a tls monitor (type).')
    const host = n.input.host(body.host)
    const starttls = body.starttls ?? null
    const port = body.port ?? tlsPortOf(starttls)
    const monitor: MonitorRecord = {
      ...hostMonitor(body, n, {
        type: 'tls',
        host,
        name: body.name ?? face.target!({ host, port, starttls }),
      }),
      port,
      starttls,
    }
    return { monitor }
  },

  patch(prev, next, patch, input, now) {
    refuseForeign(patch, 'tls', ['url', 'grace_seconds', 'pagespeed', ...DNS_PING_FIELDS])
    if (patch.timeout_seconds !== undefined) next.timeout_seconds = patch.timeout_seconds
    const host = patch.host === undefined ? prev.host : input.host(patch.host)
    const starttls = patch.starttls === undefined ? (prev.starttls ?? null) : patch.starttls
    // a new protocol without a port takes the protocol's own
    const port = patch.port ?? (patch.starttls !== undefined ? tlsPortOf(starttls) : prev.port)
    if (host === prev.host && port === prev.port && starttls === (prev.starttls ?? null)) return
    Object.assign(next, { host, port, starttls })
    retarget(next, now)
  },

  reschedule() {},

  run: (m, trigger, d, at) =>
    runProbe(m, trigger, d, at, async (c): Promise<ProbeEnd> => {
      try {
        const r = await probeTls(m.host!, m.port!, { ...c, starttls: m.starttls })
        const details = {
          days_left: r.daysLeft,
          issuer: r.issuer,
          protocol: r.protocol,
          valid_to: r.validTo,
          ...(m.starttls ? { starttls: m.starttls } : {}),
        }
        if (r.problem)
          return { ok: false, error: { code: 'certificate_invalid', message: r.problem }, details }
        return {
          ok: true,
          responseMs: r.responseMs,
          details,
          seen: `the certificate is valid for ${r.daysLeft} more days`,
          certDaysLeft: r.daysLeft,
        }
      } catch (err) {
        return failedProbe(err, d.runs.log)
      }
    }),

  nextRunAt: http.nextRunAt,

  target: (m) => face.target!(m),

  view: (m) => ({
    host: m.host ?? null,
    port: m.port ?? null,
    timeout_seconds: m.timeout_seconds ?? TIMEOUT_SECONDS.default,
    starttls: m.starttls ?? null,
  }),
}
