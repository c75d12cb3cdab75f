/**
 * What the dashboard needs from maintenance windows (docs/decisions.md#monitoring-depth), for one
 * user, in the API's wire shape. The composition root binds it to the maintenance service; without
 * it the pages say maintenance windows are not available. Errors a user can fix are
 * MaintenanceRejected, naming the field.
 */
import type { MaintenanceWindow } from '../contract/monitoring.js'

export class MaintenanceRejected extends Error {}

/** The create form as sent: times are wall-clock times in `timezone` (the form's datetime-local). */
export interface MaintenanceInput {
  name: string
  /** 'all', or the ids ticked. */
  monitor_ids: string[] | 'all'
  kind: 'once' | 'weekly'
  timezone: string
  /** One-off: YYYY-MM-DDTHH:MM in `timezone`. */
  starts_local: string
  ends_local: string
  /** Weekly: mon … sun, HH:MM, minutes. */
  days: string[]
  start: string
  duration_minutes: number
}

export interface DashboardMaintenance {
  list(userId: string): Promise<MaintenanceWindow[]>
  /** Undefined for an unknown id and for another user's window alike. */
  get(userId: string, id: string): Promise<MaintenanceWindow | undefined>
  create(userId: string, input: MaintenanceInput): Promise<MaintenanceWindow>
  /**
   * Replaces the window's name, monitors and times with the form's (a weekly window keeps the
   * bounds of its recurrence); undefined when there is no such window of this user.
   */
  update(userId: string, id: string, input: MaintenanceInput): Promise<MaintenanceWindow | undefined>
  /** False when there was no such window of this user. */
  remove(userId: string, id: string): Promise<boolean>
}
