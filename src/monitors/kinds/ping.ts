/**
 * ping monitors: `count` echo requests (default 3) through the system's `ping`; up when at least
 * one reply returns, the average round trip the run's response time and `details.packet_loss` the
 * percent lost, for `packet_loss` assertions. The host passes the SSRF guard at create and its
 * address at each run (resolve, guard, then ping the address). Where this server may not ping
 * (asked once at serve start), a ping monitor is refused at create with the reason. Alerts name
 * the target `ping example.com`.
 */
import { probePing } from '../../checks/index.js'
import { TIMEOUT_SECONDS } from '../../contract/monitor-target.js'
import { PING_COUNT } from '../../contract/monitors.js'
import { MONITOR_TYPE_FACES } from '../../contract/monitor-types/index.js'
import type { MonitorRecord } from '../../store/monitors.js'
import { DomainError } from '../../shared/index.js'
import { failedProbe, hostMonitor, retarget, runProbe, type ProbeEnd } from './endpoint.js'
import { http } from './http.js'
import { refuseForeign, type MonitorKind } from './kind.js'

const face = MONITOR_TYPE_FACES.ping

/** Two decimals at most: 33.33, not 33.3333. */
const round2 = (x: number) => Math.round(x * 100) / 100

export const ping: MonitorKind = {
  type: 'ping',
  paid: true,

  create(body, n) {
    if (body.type !== 'ping') throw new DomainError('invalid', 'Not a ping monitor (type).')
    n.input.pingable()
    const host = n.input.host(body.host)
    const monitor: MonitorRecord = {
      ...hostMonitor(body, n, { type: 'ping', host, name: body.name ?? face.target!({ host }) }),
      count: body.count ?? PING_COUNT.default,
    }
    return { monitor }
  },

  patch(prev, next, patch, input, now) {
    refuseForeign(patch, 'ping', [
      'url',
      'grace_seconds',
      'starttls',
      'pagespeed',
      'port',
      'record_type',
      'resolver',
    ])
    if (patch.timeout_seconds !== undefined) next.timeout_seconds = patch.timeout_seconds
    if (patch.count !== undefined) next.count = patch.count
    if (patch.host === undefined) return
    const host = input.host(patch.host)
    if (host === prev.host) return
    next.host = host
    retarget(next, now)
  },

  reschedule() {},

  run: (m, trigger, d, at) =>
    runProbe(m, trigger, d, at, async (c): Promise<ProbeEnd> => {
      try {
        const r = await probePing({
          host: m.host!,
          count: m.count ?? PING_COUNT.default,
          timeoutMs: c.timeoutMs,
          allowPrivateTargets: c.allowPrivateTargets,
        })
        const details = { packet_loss: round2(r.packetLoss) }
        if (r.received === 0 || r.avgMs === null)
          return {
            ok: false,
            error: {
              code: 'check_failed',
              message: `No reply from ${m.host}: ${r.transmitted} sent, ${details.packet_loss}% packet loss`,
            },
            details,
          }
        return {
          ok: true,
          responseMs: r.avgMs,
          details,
          seen: `${r.received} of ${r.transmitted} replies, ${round2(r.avgMs)} ms on average`,
          subject: { packet_loss: details.packet_loss },
        }
      } catch (err) {
        return failedProbe(err, d.runs.log)
      }
    }),

  nextRunAt: http.nextRunAt,

  target: (m) => face.target!(m),

  view: (m) => ({
    host: m.host ?? null,
    count: m.count ?? PING_COUNT.default,
    timeout_seconds: m.timeout_seconds ?? TIMEOUT_SECONDS.default,
  }),
}
