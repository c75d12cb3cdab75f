/**
 * tcp monitors: a port that opens on a host within `timeout_seconds` is up; the connect time is
 * the run's response time. Made and recorded as every type that watches a host (endpoint.ts);
 * alerts name the target `host:port`.
 */
import { probeTcp } from '../../checks/index.js'
import { TIMEOUT_SECONDS } from '../../contract/monitor-target.js'
import { MONITOR_TYPE_FACES } from '../../contract/monitor-types/index.js'
import type { MonitorRecord } from '../../store/monitors.js'
import { DomainError } from '../../shared/index.js'
import { failedProbe, hostMonitor, retarget, runProbe, type ProbeEnd } from './endpoint.js'
import { http } from './http.js'
import { DNS_PING_FIELDS, refuseForeign, type MonitorKind } from './kind.js'

const face = MONITOR_TYPE_FACES.tcp

export const tcp: MonitorKind = {
  type: 'tcp',
  paid: true,

  create(body, n) {
    if (body.type !== 'tcp') throw new DomainError('invalid', 'Not a tcp monitor (type).')
    const host = n.input.host(body.host)
    const monitor: MonitorRecord = {
      ...hostMonitor(body, n, {
        type: 'tcp',
        host,
        name: body.name ?? face.target!({ host, port: body.port }),
      }),
      port: body.port,
    }
    return { monitor }
  },

  patch(prev, next, patch, input, now) {
    refuseForeign(patch, 'tcp', ['url', 'grace_seconds', 'starttls', 'pagespeed', ...DNS_PING_FIELDS])
    if (patch.timeout_seconds !== undefined) next.timeout_seconds = patch.timeout_seconds
    const host = patch.host === undefined ? prev.host : input.host(patch.host)
    const port = patch.port ?? prev.port
    if (host === prev.host && port === prev.port) return
    Object.assign(next, { host, port })
    retarget(next, now)
  },

  reschedule() {},

  run: (m, trigger, d, at) =>
    runProbe(m, trigger, d, at, async (c): Promise<ProbeEnd> => {
      try {
        const { connectMs } = await probeTcp(m.host!, m.port!, c)
        const ms = Math.round(connectMs)
        return {
          ok: true,
          responseMs: connectMs,
          details: { connect_ms: ms },
          seen: `the port opened in ${ms} ms`,
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
  }),
}
