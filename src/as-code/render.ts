/** The plan and the outcome of a deploy, for people (`+`, `~`, `-` lines) and as JSON. */
import type { ApplyResult } from './apply.js'
import type { Plan, PlanItem } from './plan.js'

const KIND: Record<PlanItem['kind'], string> = {
  monitor: 'monitor',
  status_page: 'status page',
  maintenance: 'maintenance window',
}
const show = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v))

export function itemLine(item: PlanItem): string {
  const sign = item.action === 'create' ? '+' : item.action === 'update' ? '~' : '-'
  const what = `${sign} ${item.action} ${KIND[item.kind]} ${item.key}`
  if (item.action === 'create' && item.kind === 'monitor') return `${what} (${item.body.url})`
  return what
}

export function renderPlan(plan: Plan): string {
  if (plan.items.length === 0) return 'No changes.'
  const lines: string[] = []
  for (const item of plan.items) {
    lines.push(itemLine(item))
    if (item.action === 'update')
      for (const c of item.changes) lines.push(`    ${c.field}: ${show(c.from)} → ${show(c.to)}`)
  }
  const n = (a: string) => plan.items.filter((i) => i.action === a).length
  lines.push('', `Plan: ${n('create')} to create, ${n('update')} to update, ${n('delete')} to delete.`)
  return lines.join('\n')
}

/** The plan as JSON (`deploy --json`): each item without its request body. */
export function planJson(plan: Plan) {
  return {
    changes: plan.items.map((i) => ({
      action: i.action,
      kind: i.kind,
      key: i.key,
      ...('id' in i ? { id: i.id } : {}),
      ...(i.action === 'update' ? { changes: i.changes } : {}),
    })),
    summary: {
      create: plan.items.filter((i) => i.action === 'create').length,
      update: plan.items.filter((i) => i.action === 'update').length,
      delete: plan.items.filter((i) => i.action === 'delete').length,
    },
    unmanaged_monitors: plan.unmanaged,
  }
}

export function renderOutcome(r: ApplyResult): string {
  const lines: string[] = []
  for (const s of r.secrets)
    if ('push_url' in s)
      lines.push(
        `Push URL of heartbeat monitor ${s.monitor} (shown once, store it now; your job calls it):`,
        `  ${s.push_url}`,
      )
    else
      lines.push(
        `Webhook signing secret of channel ${s.channel} on monitor ${s.monitor} (shown once, store it now):`,
        `  ${s.secret}`,
      )
  if (!r.failed) {
    lines.push(`Applied ${r.applied.length} change${r.applied.length === 1 ? '' : 's'}.`)
    return lines.join('\n')
  }
  lines.push(`Failed at: ${itemLine(r.failed.item)}: ${r.failed.error.message}`)
  lines.push(`Applied (${r.applied.length}):`, ...r.applied.map((i) => `  ${itemLine(i)}`))
  lines.push(`Not applied (${r.failed.pending.length}):`, ...r.failed.pending.map((i) => `  ${itemLine(i)}`))
  lines.push('Deploy again to complete it: only what is still different is applied.')
  return lines.join('\n')
}
