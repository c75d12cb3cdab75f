/**
 * dns monitors: a query of one record type for a name, to the system resolver or the monitor's
 * own `resolver` (IP[:port]), is up when it answers NOERROR with at least one record, unless a
 * `dns_answer` assertion judges the answers (`is_empty` wants none). NXDOMAIN, SERVFAIL, a refusal
 * and a timeout are failed runs with the reason. The answers, sorted, are the run's
 * `details.answers`. Made and recorded as every type that watches a host (endpoint.ts); alerts
 * name the target `example.com A`.
 */
import { queryDns } from '../../checks/index.js'
import { readResolver, type ResolverAddress } from '../../contract/dns.js'
import { TIMEOUT_SECONDS } from '../../contract/monitor-target.js'
import { MONITOR_TYPE_FACES } from '../../contract/monitor-types/index.js'
import type { MonitorRecord } from '../../store/monitors.js'
import { DomainError } from '../../shared/index.js'
import { failedProbe, hostMonitor, retarget, runProbe, type ProbeEnd } from './endpoint.js'
import { http } from './http.js'
import { refuseForeign, type MonitorKind } from './kind.js'

const face = MONITOR_TYPE_FACES.dns

/** The stored resolver as the engine asks it (stored ones were read at create). */
const resolverOf = (m: MonitorRecord): ResolverAddress | undefined => {
  if (!m.resolver) return undefined
  const r = readResolver(m.resolver)
  return 'problem' in r ? undefined : r
}

/** A few answers for the words of the event that brings the monitor back up. */
const some = (answers: string[]) =>
  answers.length > 3 ? `${answers.slice(0, 3).join(', ')} and ${answers.length - 3} more` : answers.join(', ')

export const dns: MonitorKind = {
  type: 'dns',
  paid: true,

  create(body, n) {
    if (body.type !== 'dns') throw new DomainError('invalid', 'Not a dns monitor (type).')
    const host = n.input.host(body.host)
    const monitor: MonitorRecord = {
      ...hostMonitor(body, n, {
        type: 'dns',
        host,
        name: body.name ?? face.target!({ host, record_type: body.record_type }),
      }),
      record_type: body.record_type,
      resolver: body.resolver == null ? null : n.input.resolver(body.resolver),
    }
    return { monitor }
  },

  patch(prev, next, patch, input, now) {
    refuseForeign(patch, 'dns', ['url', 'grace_seconds', 'starttls', 'pagespeed', 'port', 'count'])
    if (patch.timeout_seconds !== undefined) next.timeout_seconds = patch.timeout_seconds
    const host = patch.host === undefined ? prev.host : input.host(patch.host)
    const recordType = patch.record_type ?? prev.record_type
    const resolver =
      patch.resolver === undefined
        ? (prev.resolver ?? null)
        : patch.resolver && input.resolver(patch.resolver)
    if (host === prev.host && recordType === prev.record_type && resolver === (prev.resolver ?? null)) return
    Object.assign(next, { host, record_type: recordType, resolver })
    retarget(next, now)
  },

  reschedule() {},

  run: (m, trigger, d, at) =>
    runProbe(m, trigger, d, at, async (c): Promise<ProbeEnd> => {
      const type = m.record_type!
      try {
        const { answers, ms } = await queryDns({
          host: m.host!,
          type,
          resolver: resolverOf(m),
          timeoutMs: c.timeoutMs,
          allowPrivateTargets: c.allowPrivateTargets,
        })
        // no records: down, unless the monitor's dns_answer assertions judge the answer
        if (answers.length === 0 && !(m.assertions ?? []).some((a) => a.source === 'dns_answer'))
          return {
            ok: false,
            error: {
              code: 'check_failed',
              message: `No ${type} records for ${m.host} (NOERROR, empty answer)`,
            },
            details: { answers },
          }
        return {
          ok: true,
          responseMs: ms,
          details: { answers },
          seen: answers.length ? `${type} answered ${some(answers)}` : `${type} answered no records`,
          subject: { dns_answers: answers },
        }
      } catch (err) {
        return failedProbe(err, d.runs.log)
      }
    }),

  nextRunAt: http.nextRunAt,

  target: (m) => face.target!(m),

  view: (m) => ({
    host: m.host ?? null,
    record_type: m.record_type ?? null,
    resolver: m.resolver ?? null,
    timeout_seconds: m.timeout_seconds ?? TIMEOUT_SECONDS.default,
  }),
}
