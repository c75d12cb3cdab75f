/**
 * A monitor's input checked and normalised (docs/decisions.md#monitors-and-alerts): the target URL
 * past the SSRF guard, the interval, the lab's hourly floor, alert rules with their defaults, and
 * channels (a new webhook gets its secret, sealed; an unchanged channel keeps its id and secret).
 * Bad input is a DomainError (shared/domain-error.ts): `invalid`, or `conflict` for a ref taken.
 */
import {
  CheckError,
  assertTargetAllowed,
  blockedAddressReason,
  endpointUrl,
  parseTargetUrl,
  type PingAvailability,
} from '../checks/index.js'
import { hostProblem, normalHost } from '../contract/monitor-target.js'
import { readResolver, resolverText } from '../contract/dns.js'
import {
  DEFAULT_DOWN_AFTER,
  DEFAULT_RECOVER_AFTER,
  INTERVAL,
  LAB_MIN_INTERVAL_SECONDS,
  type Alerts,
  type AlertsView,
  type ChannelRequest,
} from '../contract/monitors.js'
import type { PagespeedMethod } from '../contract/schemas.js'
import type { SecretBox } from '../shared/index.js'
import { DuplicateRefError } from '../store/errors.js'
import type { ChannelRecord, MonitorRecord } from '../store/monitors.js'
import { ChannelRequestError, makeChannels } from './channels/records.js'
import { nextId } from './ids.js'
import { intervalProblem } from './interval.js'
import { DomainError } from '../shared/index.js'

export function refTaken(err: unknown): never {
  if (err instanceof DuplicateRefError) throw new DomainError('conflict', err.message)
  throw err
}

export class MonitorInput {
  constructor(
    private readonly o: {
      allowPrivateTargets: boolean
      /** Whether this server may ping (asked once at serve start); absent: not asked, taken as yes. */
      ping?: PingAvailability
      minInterval: number
      secrets: SecretBox
      now: () => number
    },
  ) {}

  target(url: string): string {
    try {
      const u = parseTargetUrl(url)
      assertTargetAllowed(u, { allowPrivateTargets: this.o.allowPrivateTargets })
      return u.href
    } catch (err) {
      if (err instanceof CheckError) throw new DomainError('invalid', err.message)
      throw err
    }
  }

  /**
   * A host to watch (types beyond http), normalised and past the SSRF guard exactly as a URL's host
   * is: a local name or a blocked address literal is refused, naming the field. A name is judged
   * again by the address it resolves to at each run (the engine's guarded lookup).
   */
  host(host: string): string {
    const problem = hostProblem(host)
    if (problem) throw new DomainError('invalid', `${problem} (host)`)
    const h = normalHost(host)
    try {
      assertTargetAllowed(endpointUrl(h, 1, false), { allowPrivateTargets: this.o.allowPrivateTargets })
      return h
    } catch (err) {
      if (err instanceof CheckError) throw new DomainError('invalid', `${err.message} (host)`)
      throw err
    }
  }

  /** A dns monitor's resolver, `IP[:port]`, past the SSRF guard as a host literal is (naming the field). */
  resolver(text: string): string {
    const r = readResolver(text)
    if ('problem' in r) throw new DomainError('invalid', `${r.problem} (resolver)`)
    const reason = this.o.allowPrivateTargets ? null : blockedAddressReason(r.address)
    if (reason) throw new DomainError('invalid', `Blocked for safety: ${r.address} is ${reason} (resolver)`)
    return resolverText(r)
  }

  /** Refuses a ping monitor where this server may not ping, with the reason (409). */
  pingable(): void {
    const p = this.o.ping
    if (p && !p.ok)
      throw new DomainError(
        'conflict',
        `This server cannot run ping monitors: ${p.reason}. Watch the host with a tcp monitor instead, or ask the server's operator.`,
      )
  }

  interval(seconds: number | undefined): number {
    const s = seconds ?? Math.max(INTERVAL.default, this.o.minInterval)
    const problem = intervalProblem(s, this.o.minInterval)
    if (problem) throw new DomainError('invalid', problem)
    return s
  }

  /** docs/decisions.md#performance-lab-and-estimate: lab runs for monitors at most hourly; refused like any invalid monitor input, naming the field. */
  pagespeed(method: PagespeedMethod, interval: number): PagespeedMethod {
    if (method === 'lab' && interval < LAB_MIN_INTERVAL_SECONDS)
      throw new DomainError(
        'invalid',
        `pagespeed "lab" needs interval_seconds of at least ${LAB_MIN_INTERVAL_SECONDS} (lab runs at most hourly); got ${interval}`,
      )
    return method
  }

  alertRules(a: Alerts | undefined, prev?: MonitorRecord['alerts']): AlertsView {
    return {
      down_after: a?.down_after ?? prev?.down_after ?? DEFAULT_DOWN_AFTER,
      min_score: a?.min_score !== undefined ? a.min_score : (prev?.min_score ?? null),
      recover_after: a?.recover_after ?? prev?.recover_after ?? DEFAULT_RECOVER_AFTER,
      remind_every_minutes:
        a?.remind_every_minutes !== undefined ? a.remind_every_minutes : (prev?.remind_every_minutes ?? null),
    }
  }

  /** New channel records (secrets for new signed channels go to `secrets`); equal ones are kept. */
  channels(reqs: ChannelRequest[], keep: ChannelRecord[], secrets: Map<string, string>): ChannelRecord[] {
    try {
      return makeChannels(reqs, keep, secrets, { ...this.o, newId: () => nextId(this.o.now()) })
    } catch (err) {
      if (err instanceof ChannelRequestError) throw new DomainError('invalid', err.message)
      throw err
    }
  }
}
