/**
 * The maintenance-window concern of the storage interface (docs/decisions.md#monitoring-depth): a
 * user's windows, one-off or weekly, each silencing some of the user's monitors or all of them.
 * Every backend implements it in its own file (src/store/embedded/maintenance.ts,
 * src/store/postgres/maintenance.ts).
 */
import type { WeeklySchedule } from '../contract/monitoring.js'

export interface MaintenanceRecord {
  id: string
  user_id: string
  name: string
  /** The owner's monitors it covers, or 'all' (every monitor of the owner, also ones made later). */
  monitor_ids: string[] | 'all'
  /** One-off: when it opens and closes; weekly: the bounds of the recurrence (either may be null). */
  starts_at: string | null
  ends_at: string | null
  weekly: WeeklySchedule | null
  created_at: string
  updated_at: string
}

export interface MaintenanceStore {
  createMaintenance(w: MaintenanceRecord): Promise<MaintenanceRecord>
  /** The user's window, or undefined (unknown or another user's: the same answer). */
  getMaintenance(userId: string, id: string): Promise<MaintenanceRecord | undefined>
  /** The user's windows, oldest first. */
  listMaintenance(userId: string): Promise<MaintenanceRecord[]>
  /** Replaces the window (same id and user); undefined when it is gone. */
  updateMaintenance(w: MaintenanceRecord): Promise<MaintenanceRecord | undefined>
  deleteMaintenance(userId: string, id: string): Promise<boolean>
}
