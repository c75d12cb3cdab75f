/**
 * The registry of monitor kinds: the one place that tells monitor types apart. Everything else
 * asks the monitor's kind (`kindOf(m)`) what its type does. A new type is a module here, listed in
 * KINDS (docs/architecture.md#a-new-monitor-type).
 */
import type { MonitorType } from '../../contract/monitors.js'
import type { MonitorRecord } from '../../store/monitors.js'
import { heartbeat } from './heartbeat.js'
import { http } from './http.js'
import type { MonitorKind } from './kind.js'
import { tcp } from './tcp.js'
import { tls } from './tls.js'
import { dns } from './dns.js'
import { ping } from './ping.js'

export const KINDS: Readonly<Record<MonitorType, MonitorKind>> = { http, heartbeat, tcp, tls, dns, ping }

/** The kind of a monitor (records made before there were types are http), or of a type. */
export function kindOf(m: Pick<MonitorRecord, 'type'> | MonitorType | undefined): MonitorKind {
  const type = typeof m === 'string' ? m : m?.type
  return KINDS[type ?? 'http']
}

export { Heartbeats, monitorIdOfToken, type BeatStatus } from './heartbeat.js'
export type { KindFields, KindRunDeps, MonitorKind, RunEnd, RunOutcome } from './kind.js'
export { fittingAssertions } from './endpoint.js'
