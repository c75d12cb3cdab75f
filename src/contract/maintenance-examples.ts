/**
 * Examples of the maintenance-window bodies (docs/decisions.md#monitoring-depth), for /openapi.json
 * and /docs; the OpenAPI test validates each against its schema.
 */
import type {
  MaintenanceCreate,
  MaintenanceList,
  MaintenancePatch,
  MaintenanceWindow,
  PushResult,
} from './monitoring.js'

const MONITOR_ID = '0193a5c4-7a10-7c3e-8d2f-4b5a6c7d8e9f'

const maintenanceCreate: MaintenanceCreate = {
  name: 'Saturday backup',
  monitor_ids: [MONITOR_ID],
  weekly: { days: ['sat'], start: '02:00', duration_minutes: 90, timezone: 'Europe/Berlin' },
}

const maintenancePatch: MaintenancePatch = { name: 'Release 4.2', monitor_ids: 'all' }

const weeklyWindow: MaintenanceWindow = {
  id: '0193a5d0-1b2c-7d3e-9f40-5a6b7c8d9e0f',
  name: 'Saturday backup',
  monitor_ids: [MONITOR_ID],
  starts_at: null,
  ends_at: null,
  weekly: { days: ['sat'], start: '02:00', duration_minutes: 90, timezone: 'Europe/Berlin' },
  active: false,
  next_starts_at: '2026-11-28T01:00:00.000Z',
  next_ends_at: '2026-11-28T02:30:00.000Z',
  created_at: '2026-11-25T09:30:00.000Z',
  updated_at: '2026-11-25T09:30:00.000Z',
}

const oneOffWindow: MaintenanceWindow = {
  id: '0193a5d1-2c3d-7e4f-8a51-6b7c8d9e0f1a',
  name: 'Release 4.2',
  monitor_ids: 'all',
  starts_at: '2026-12-01T22:00:00.000Z',
  ends_at: '2026-12-01T23:00:00.000Z',
  weekly: null,
  active: false,
  next_starts_at: '2026-12-01T22:00:00.000Z',
  next_ends_at: '2026-12-01T23:00:00.000Z',
  created_at: '2026-11-25T09:31:00.000Z',
  updated_at: '2026-11-25T09:31:00.000Z',
}

const maintenanceList: MaintenanceList = { maintenance_windows: [weeklyWindow, oneOffWindow] }

const pushResult: PushResult = {
  ok: true,
  monitor_id: '0193a5c4-7a10-7c3e-8d2f-4b5a6c7d8e9f',
  status: 'up',
  received_at: '2026-11-26T02:00:04.118Z',
}

export const MAINTENANCE_EXAMPLES: Record<string, unknown> = {
  MaintenanceCreate: maintenanceCreate,
  MaintenancePatch: maintenancePatch,
  MaintenanceWindow: weeklyWindow,
  MaintenanceList: maintenanceList,
  PushResult: pushResult,
}
