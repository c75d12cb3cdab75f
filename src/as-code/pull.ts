/**
 * `pull`: the account's monitors with a ref, their channels and status pages as a file that
 * `deploy` turns into `No changes`. The API never gives a channel target back, so a channel is
 * written as the file that deployed it wrote it (`source`: a literal or a `${VAR}`, never the
 * variable's value); a channel made otherwise gets a `${VAR}` placeholder to set.
 */
import { stringify } from 'yaml'
import { providerFace } from '../contract/channels.js'
import type { Channel, Monitor } from '../contract/monitors.js'
import { DEFAULT_DOWN_AFTER, DEFAULT_RECOVER_AFTER, INTERVAL, PING_COUNT } from '../contract/monitors.js'
import { GRACE } from '../contract/monitoring.js'
import { TIMEOUT_SECONDS, tlsPortOf } from '../contract/monitor-target.js'
import { DEFAULT_MONITOR_TYPE } from '../contract/monitor-types/index.js'
import { formatEvery } from '../contract/durations.js'
import { defaultName } from '../monitors/names.js'
import { schemaUrl } from '../contract/file-schema.js'
import { pullWindows } from './maintenance.js'
import type { Current } from './plan.js'

export interface Pulled {
  text: string
  /** Variables the file needs that no deploy named (channels made outside a file). */
  variables: string[]
  /** Monitors and pages left out (no ref, or a page showing a monitor without one). */
  skipped: { monitors: number; status_pages: number; maintenance: number }
}

const envName = (name: string, field: string) =>
  `SITEHEALTH_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${field.toUpperCase()}`

function channelNames(monitors: Monitor[]) {
  const byPrint = new Map<string, { name: string; channel: Channel }>()
  const taken = new Set<string>()
  const counters = new Map<string, number>()
  for (const m of monitors)
    for (const c of m.channels) {
      if (byPrint.has(c.fingerprint)) continue
      let name = c.name && !taken.has(c.name) ? c.name : ''
      while (!name || taken.has(name)) {
        const n = (counters.get(c.type) ?? 0) + 1
        counters.set(c.type, n)
        name = `${c.type}-${n}`
      }
      taken.add(name)
      byPrint.set(c.fingerprint, { name, channel: c })
    }
  return byPrint
}

/** The file of `current`; `apiBase` is the server it came from, whose schema the modeline names. */
export function pullFile(current: Current, apiBase: string): Pulled {
  const managed = current.monitors.filter((m) => m.ref).sort((a, b) => (a.id < b.id ? -1 : 1))
  const names = channelNames(managed)
  const variables: string[] = []
  const channels: Record<string, Record<string, string>> = {}
  for (const { name, channel: c } of names.values()) {
    const field = providerFace(c.type).target
    let value = c.source
    if (!value) {
      const v = envName(name, field)
      variables.push(v)
      value = `\${${v}}`
    }
    channels[name] = { type: c.type, [field]: value }
  }
  const monitors = managed.map((m) => {
    const out: Record<string, unknown> = { ref: m.ref }
    if (m.type !== DEFAULT_MONITOR_TYPE) out.type = m.type
    const host = m.url ? defaultName(m.url) : m.ref
    if (m.name !== host) out.name = m.name
    if (m.url) out.url = m.url
    if (m.host !== null) out.host = m.host
    if (m.port !== null && !(m.type === 'tls' && m.port === tlsPortOf(m.starttls))) out.port = m.port
    if (m.starttls) out.starttls = m.starttls
    if (m.record_type) out.record_type = m.record_type
    if (m.resolver) out.resolver = m.resolver
    if (m.count !== null && m.count !== PING_COUNT.default) out.count = m.count
    if (m.timeout_seconds !== null && m.timeout_seconds !== TIMEOUT_SECONDS.default)
      out.timeout = formatEvery(m.timeout_seconds)
    if (m.interval_seconds !== INTERVAL.default) out.every = formatEvery(m.interval_seconds)
    if (m.grace_seconds !== null && m.grace_seconds !== GRACE.default)
      out.grace = m.grace_seconds === 0 ? 0 : formatEvery(m.grace_seconds)
    if (m.paused && m.paused_reason === 'user') out.paused = true
    const alerts: Record<string, unknown> = {}
    if (m.alerts.down_after !== DEFAULT_DOWN_AFTER) alerts.down_after = m.alerts.down_after
    if (m.alerts.min_score !== null) alerts.min_score = m.alerts.min_score
    if (m.alerts.recover_after !== DEFAULT_RECOVER_AFTER) alerts.recover_after = m.alerts.recover_after
    if (m.alerts.remind_every_minutes !== null) alerts.remind_every_minutes = m.alerts.remind_every_minutes
    if (Object.keys(alerts).length) out.alerts = alerts
    if (m.assertions.length)
      out.assertions = m.assertions.map((a) => ({
        source: a.source,
        ...(a.property ? { property: a.property } : {}),
        comparison: a.comparison,
        ...(a.target !== undefined && a.target !== null ? { target: a.target } : {}),
      }))
    if (m.tags.length) out.tags = m.tags
    if (m.channels.length) out.channels = m.channels.map((c) => names.get(c.fingerprint)!.name)
    return out
  })
  const refOf = new Map(managed.map((m) => [m.id, m.ref!]))
  const pages = current.status_pages.filter((p) => p.monitor_ids.every((id) => refOf.has(id)))
  const status_pages = pages.map((p) => ({
    slug: p.slug,
    title: p.title,
    ...(p.description ? { description: p.description } : {}),
    ...(p.show_urls ? { show_urls: true } : {}),
    monitors: p.monitor_ids.map((id) => refOf.get(id)!),
  }))
  const windows = pullWindows(current.maintenance_windows ?? [], refOf)
  const doc: Record<string, unknown> = {}
  if (Object.keys(channels).length) doc.channels = channels
  doc.monitors = monitors
  if (status_pages.length) doc.status_pages = status_pages
  if (windows.maintenance.length) doc.maintenance = windows.maintenance
  const header = [
    `# yaml-language-server: $schema=${schemaUrl(apiBase)}`,
    '# Written by `sitehealth pull`. Deploy with `sitehealth deploy`.',
    ...(variables.length
      ? [
          `# Set these before deploying (channel targets are never sent back by the API): ${variables.join(', ')}`,
        ]
      : []),
  ]
  return {
    text: `${header.join('\n')}\n${stringify(doc, { lineWidth: 0 })}`,
    variables,
    skipped: {
      monitors: current.monitors.length - managed.length,
      status_pages: current.status_pages.length - pages.length,
      maintenance: windows.skipped,
    },
  }
}
