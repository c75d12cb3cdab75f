/**
 * Applying a plan through the typed API client, one item at a time in an order that always
 * works (monitors before the pages that show them; deletions last). A failure stops the run and
 * says what was applied and what was not; since the plan is recomputed from the account each
 * time, deploying again completes it.
 */
import type { SitehealthClient } from '../client/client.js'
import type { Monitor, MonitorPatch } from '../contract/monitors.js'
import type { Current, PlanItem } from './plan.js'
import { applyWindow } from './maintenance.js'

/** Shown once: a new webhook channel's signing secret, or a new heartbeat monitor's push URL. */
export type NewSecret =
  { monitor: string; channel: string; secret: string } | { monitor: string; push_url: string }

export interface ApplyResult {
  applied: PlanItem[]
  /** The item that failed and the items after it, unapplied. */
  failed?: { item: PlanItem; error: Error; pending: PlanItem[] }
  secrets: NewSecret[]
}

/** Every monitor and status page of the account (all pages of the monitor list). */
export async function fetchCurrent(client: SitehealthClient): Promise<Current> {
  const monitors: Monitor[] = []
  let cursor: string | undefined
  for (;;) {
    const page = await client.listMonitors({ limit: 50, cursor })
    monitors.push(...page.monitors)
    if (!page.next_cursor) break
    cursor = page.next_cursor
  }
  const { status_pages } = await client.listStatusPages()
  const { maintenance_windows } = await client.listMaintenance()
  return { monitors, status_pages, maintenance_windows }
}

const ORDER: Record<string, number> = {
  'create monitor': 0,
  'update monitor': 0,
  'create status_page': 1,
  'update status_page': 1,
  'delete status_page': 2,
  'create maintenance': 1,
  'update maintenance': 1,
  'delete maintenance': 2,
  'delete monitor': 3,
}

export function applyOrder(items: PlanItem[]): PlanItem[] {
  return [...items].sort((a, b) => ORDER[`${a.action} ${a.kind}`] - ORDER[`${b.action} ${b.kind}`])
}

function secretsOf(m: Monitor): NewSecret[] {
  const out: NewSecret[] = m.channels
    .filter((c) => c.secret)
    .map((c) => ({ monitor: m.ref ?? m.id, channel: c.name ?? c.type, secret: c.secret! }))
  if (m.push_url) out.push({ monitor: m.ref ?? m.id, push_url: m.push_url })
  return out
}

async function applyOne(
  client: SitehealthClient,
  item: PlanItem,
  ids: Map<string, string>,
  secrets: NewSecret[],
  paused: Map<string, boolean>,
): Promise<void> {
  const idsOf = (refs: string[]) => refs.map((r) => ids.get(r)!)
  if (item.kind === 'monitor') {
    if (item.action === 'create') {
      let m = await client.createMonitor(item.body)
      secrets.push(...secretsOf(m))
      if (paused.get(item.key)) m = await client.updateMonitor(m.id, { paused: true })
      ids.set(item.key, m.id)
    } else if (item.action === 'update') {
      const { ref: _r, type: _t, ...rest } = item.body
      const patch: MonitorPatch = { ...rest }
      if (paused.has(item.key)) patch.paused = paused.get(item.key)
      secrets.push(...secretsOf(await client.updateMonitor(item.id, patch)))
    } else await client.deleteMonitor(item.id)
    return
  }
  if (item.kind === 'maintenance') {
    if (item.action === 'delete') return client.deleteMaintenance(item.id)
    return applyWindow(client, item, idsOf)
  }
  if (item.action === 'delete') return client.deleteStatusPage(item.id)
  const { monitor_refs, ...page } = item.body
  if (item.action === 'create') await client.createStatusPage({ ...page, monitor_ids: idsOf(monitor_refs) })
  else await client.updateStatusPage(item.id, { ...page, monitor_ids: idsOf(monitor_refs) })
}

export async function applyPlan(
  client: SitehealthClient,
  items: PlanItem[],
  current: Current,
  opts: { paused: Map<string, boolean>; onProgress?: (done: number, total: number, item: PlanItem) => void },
): Promise<ApplyResult> {
  const ordered = applyOrder(items)
  const ids = new Map(current.monitors.filter((m) => m.ref).map((m) => [m.ref!, m.id]))
  const applied: PlanItem[] = []
  const secrets: NewSecret[] = []
  for (const [i, item] of ordered.entries()) {
    try {
      await applyOne(client, item, ids, secrets, opts.paused)
    } catch (err) {
      return { applied, secrets, failed: { item, error: err as Error, pending: ordered.slice(i) } }
    }
    applied.push(item)
    opts.onProgress?.(i + 1, ordered.length, item)
  }
  return { applied, secrets }
}
