/**
 * Maintenance windows in `sitehealth.yaml` (`maintenance:`): matched by name, monitors by ref or
 * `all`. The plan compares what the file governs; `--prune` deletes only windows of ref'd
 * monitors (a window over `all` or over monitors without a ref may not have come from a file).
 */
import type { SitehealthClient } from '../client/client.js'
import type { MaintenanceWindow, WeeklySchedule } from '../contract/monitoring.js'
import type { FileMaintenance } from '../contract/file-schema.js'

/** A window with its monitors still by ref (ids are known only once monitors exist). */
export interface WindowBody {
  name: string
  monitor_refs: string[] | 'all'
  starts_at: string | null
  ends_at: string | null
  weekly: WeeklySchedule | null
}

export interface WindowChange {
  field: string
  from: unknown
  to: unknown
}

const instant = (iso: string | null | undefined) => (iso ? new Date(Date.parse(iso)).toISOString() : null)

export function windowBody(w: FileMaintenance): WindowBody {
  return {
    name: w.name,
    monitor_refs: w.monitors,
    starts_at: instant(w.starts_at),
    ends_at: instant(w.ends_at),
    weekly: w.weekly ?? null,
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

export function windowChanges(
  cur: MaintenanceWindow,
  want: WindowBody,
  refOf: Map<string, string>,
): WindowChange[] {
  const out: WindowChange[] = []
  const push = (field: string, from: unknown, to: unknown) => {
    if (!same(from, to)) out.push({ field, from, to })
  }
  push(
    'monitors',
    cur.monitor_ids === 'all' ? 'all' : cur.monitor_ids.map((id) => refOf.get(id) ?? id),
    want.monitor_refs,
  )
  push('starts_at', instant(cur.starts_at), want.starts_at)
  push('ends_at', instant(cur.ends_at), want.ends_at)
  push('weekly', cur.weekly, want.weekly)
  return out
}

/** Windows `--prune` may delete: not in the file, over monitors that all have a ref. */
export function prunable(cur: MaintenanceWindow, names: Set<string>, refOf: Map<string, string>): boolean {
  return !names.has(cur.name) && cur.monitor_ids !== 'all' && cur.monitor_ids.every((id) => refOf.has(id))
}

export async function applyWindow(
  client: SitehealthClient,
  item: { action: 'create' | 'update'; id?: string; body: WindowBody },
  idsOf: (refs: string[]) => string[],
): Promise<void> {
  const { monitor_refs, ...rest } = item.body
  const body = { ...rest, monitor_ids: monitor_refs === 'all' ? ('all' as const) : idsOf(monitor_refs) }
  if (item.action === 'create')
    await client.createMaintenance({
      name: body.name,
      monitor_ids: body.monitor_ids,
      ...(body.starts_at !== null ? { starts_at: body.starts_at } : {}),
      ...(body.ends_at !== null ? { ends_at: body.ends_at } : {}),
      ...(body.weekly !== null ? { weekly: body.weekly } : {}),
    })
  else await client.updateMaintenance(item.id!, body)
}

/** The account's windows as the file writes them (those a file could have made). */
export function pullWindows(windows: MaintenanceWindow[], refOf: Map<string, string>) {
  const kept = windows.filter((w) => w.monitor_ids === 'all' || w.monitor_ids.every((id) => refOf.has(id)))
  return {
    skipped: windows.length - kept.length,
    maintenance: kept.map((w) => ({
      name: w.name,
      monitors: w.monitor_ids === 'all' ? 'all' : w.monitor_ids.map((id) => refOf.get(id)!),
      ...(w.starts_at ? { starts_at: w.starts_at } : {}),
      ...(w.ends_at ? { ends_at: w.ends_at } : {}),
      ...(w.weekly ? { weekly: w.weekly } : {}),
    })),
  }
}
