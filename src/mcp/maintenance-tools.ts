/**
 * The maintenance-window tools of docs/decisions.md#monitoring-depth: list the user's windows (free,
 * read-only), create one, change one and delete one. Inside a window monitors keep running but raise no alert
 * and their runs do not count in uptime. Same conventions as tools.ts: the API's body as
 * structuredContent, the contract schema as output schema, API failures as tool errors.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { SitehealthClient } from '../client/client.js'
import {
  MaintenanceCreate,
  MaintenanceList,
  MaintenancePatch,
  MaintenanceWindow,
  WeeklySchedule,
  type MaintenanceWindow as Window,
} from '../contract/monitoring.js'

export const MAINTENANCE_TOOL_NAMES = [
  'service_list_maintenance_windows',
  'service_create_maintenance_window',
  'service_update_maintenance_window',
  'service_delete_maintenance_window',
] as const

const CreateInput = {
  name: MaintenanceCreate.shape.name.meta({ description: 'What the window is for (shown on status pages).' }),
  monitor_ids: MaintenanceCreate.shape.monitor_ids,
  starts_at: MaintenanceCreate.shape.starts_at.meta({
    description: 'ISO 8601: when a one-off window opens, or the first day a weekly window may open.',
  }),
  ends_at: MaintenanceCreate.shape.ends_at.meta({
    description: 'ISO 8601: when a one-off window closes, or the end of a weekly recurrence.',
  }),
  weekly: WeeklySchedule.optional().meta({
    description:
      'A weekly window instead of a one-off one: {days: ["sat"], start: "02:00", duration_minutes: 90, timezone: "Europe/Berlin"}.',
  }),
}

/** The create tool's fields, all optional but the id; null removes a time or the weekly schedule. */
const UpdateInput = {
  id: z.uuid().meta({ description: 'The window id (from service_list_maintenance_windows).' }),
  name: MaintenancePatch.shape.name.meta({ description: 'A new name.' }),
  monitor_ids: MaintenancePatch.shape.monitor_ids.meta({
    description: 'Replaces the monitors: ids, or "all" (also monitors created later).',
  }),
  starts_at: MaintenancePatch.shape.starts_at.meta({
    description: 'ISO 8601, as for create; null removes it (a weekly window then has no first day).',
  }),
  ends_at: MaintenancePatch.shape.ends_at.meta({
    description: 'ISO 8601, as for create; null removes it (a weekly window then recurs without end).',
  }),
  weekly: WeeklySchedule.nullable().optional().meta({
    description:
      'Replaces the weekly schedule ({days, start, duration_minutes, timezone}); null makes it one-off (then give starts_at and ends_at).',
  }),
}

const DeleteInput = {
  id: z.uuid().meta({ description: 'The window id (from service_list_maintenance_windows).' }),
}

const Deleted = z.object({ deleted: z.literal(true), id: z.uuid() })

function when(w: Window): string {
  const sched = w.weekly
    ? `every ${w.weekly.days.join(', ')} ${w.weekly.start} for ${w.weekly.duration_minutes} min (${w.weekly.timezone})`
    : `${w.starts_at} to ${w.ends_at}`
  const next = w.active
    ? `open now until ${w.next_ends_at}`
    : w.next_starts_at
      ? `next opens ${w.next_starts_at}`
      : 'never opens again'
  const monitors = w.monitor_ids === 'all' ? 'all monitors' : `${w.monitor_ids.length} monitor(s)`
  return `"${w.name}" ${sched}, ${monitors}, ${next} (id ${w.id})`
}

export function registerMaintenanceTools(
  server: McpServer,
  getClient: () => SitehealthClient,
  fail: (err: unknown) => CallToolResult,
): void {
  server.registerTool(
    'service_list_maintenance_windows',
    {
      title: 'List maintenance windows',
      description:
        "Lists the maintenance windows of this API key's user: one-off or weekly, the monitors each silences " +
        '(or all), whether it is open now and when it opens next. Inside a window monitors keep running but ' +
        'raise no alert, read "maintenance", and their runs do not count in uptime. Free: costs no credits.',
      inputSchema: {},
      outputSchema: MaintenanceList.shape,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
        title: 'Maintenance windows',
      },
    },
    async () => {
      try {
        const body = await getClient().listMaintenance()
        const list = body.maintenance_windows
        const text =
          list.length === 0
            ? 'No maintenance windows.'
            : `${list.length} maintenance window(s):\n${list.map((w) => `- ${when(w)}`).join('\n')}`
        return { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
      } catch (err) {
        return fail(err)
      }
    },
  )

  server.registerTool(
    'service_create_maintenance_window',
    {
      title: 'Create a maintenance window',
      description:
        'Silences monitors for a planned release or backup: a one-off window (starts_at and ends_at) or a ' +
        'weekly one (weekly; starts_at/ends_at then bound the recurrence), over monitor ids or "all" (also ' +
        'monitors created later). Inside it runs go on (http runs still cost their credit), no alert is ' +
        'raised and the runs do not count in uptime; public status pages show it. Free to create.',
      inputSchema: CreateInput,
      outputSchema: MaintenanceWindow.shape,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
        title: 'Create a maintenance window',
      },
    },
    async (input) => {
      try {
        const body = await getClient().createMaintenance(input as MaintenanceCreate)
        const text = `Created maintenance window ${when(body)}.`
        return { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
      } catch (err) {
        return fail(err)
      }
    },
  )

  registerUpdate(server, getClient, fail)

  server.registerTool(
    'service_delete_maintenance_window',
    {
      title: 'Delete a maintenance window',
      description:
        'Deletes a maintenance window at once: its monitors alert again on their next run if they are down. ' +
        'Free. The answer is {deleted: true, id}; an unknown id is a not_found tool error.',
      inputSchema: DeleteInput,
      outputSchema: Deleted.shape,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
        title: 'Delete a maintenance window',
      },
    },
    async ({ id }) => {
      try {
        await getClient().deleteMaintenance(id)
        return {
          content: [{ type: 'text', text: `Deleted maintenance window ${id}.` }],
          structuredContent: { deleted: true, id },
        }
      } catch (err) {
        return fail(err)
      }
    },
  )
}

/** The update tool: the API's PATCH. */
function registerUpdate(
  server: McpServer,
  getClient: () => SitehealthClient,
  fail: (err: unknown) => CallToolResult,
): void {
  server.registerTool(
    'service_update_maintenance_window',
    {
      title: 'Change a maintenance window',
      description:
        'Changes a maintenance window: only the fields given (the same as for create), the rest kept; the ' +
        'result must still be a valid window (a one-off one needs starts_at before ends_at). To make a ' +
        'weekly window one-off give weekly: null with starts_at and ends_at; to make a one-off window ' +
        'weekly give weekly with starts_at: null and ends_at: null (or bounds). Free. An unknown id is a ' +
        'not_found tool error.',
      inputSchema: UpdateInput,
      outputSchema: MaintenanceWindow.shape,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
        title: 'Change a maintenance window',
      },
    },
    async ({ id, ...patch }) => {
      try {
        const body = await getClient().updateMaintenance(id, patch as MaintenancePatch)
        const text = `Updated maintenance window ${when(body)}.`
        return { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
      } catch (err) {
        return fail(err)
      }
    },
  )
}
