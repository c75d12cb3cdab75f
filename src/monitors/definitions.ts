/**
 * Monitors as definitions: create, read, change and delete, with the input checked
 * (input.ts) and each type's own fields left to its kind (kinds/).
 */
import type { MonitorCreate, MonitorPatch } from '../contract/monitors.js'
import { normalizeTags } from '../contract/tags.js'
import type { MonitorDefinitionStore, MonitorRecord } from '../store/monitors.js'
import { refTaken, type MonitorInput } from './input.js'
import { fittingAssertions, kindOf } from './kinds/index.js'
import { capReached, type MonitorQuota } from './quota.js'
import { MonitorLimitError } from '../store/errors.js'
import { defaultName, isHostName } from './names.js'
import { DomainError } from '../shared/index.js'

const NOT_FOUND = 'No monitor with this id for this API key.'

export interface DefinitionDeps {
  monitors: MonitorDefinitionStore
  input: MonitorInput
  /** How many monitors an account may have and how fast it may make them. */
  quota: MonitorQuota
  now: () => number
  /** A monitor's next run moved (the scheduler re-arms its timer). */
  scheduleChanged: () => void
}

export class MonitorDefinitions {
  constructor(private readonly d: DefinitionDeps) {}

  /** A new monitor, the secrets of its new webhook channels, and a push token of a heartbeat (each shown once). */
  async create(
    userId: string,
    body: MonitorCreate,
  ): Promise<{ monitor: MonitorRecord; secrets: Map<string, string>; pushToken?: string }> {
    const secrets = new Map<string, string>()
    const n = { userId, now: this.d.now(), input: this.d.input, secrets }
    const { monitor, shownOnce } = kindOf(body.type).create(body, n)
    // the account's rate, then its cap, checked by the store as it writes (quota.ts)
    const giveBack = await this.d.quota.take(userId)
    const maxPerUser = await this.d.quota.capOf(userId)
    try {
      await this.d.monitors.createMonitor(monitor, { maxPerUser })
    } catch (err) {
      await giveBack()
      if (err instanceof MonitorLimitError) throw capReached(err.max)
      refTaken(err)
    }
    this.d.scheduleChanged()
    return { monitor, secrets, ...(shownOnce !== undefined ? { pushToken: shownOnce } : {}) }
  }

  async get(userId: string, id: string): Promise<MonitorRecord> {
    const m = await this.d.monitors.getMonitor(userId, id.toLowerCase())
    if (!m) throw new DomainError('not_found', NOT_FOUND)
    return m
  }

  async update(
    userId: string,
    id: string,
    patch: MonitorPatch,
  ): Promise<{ monitor: MonitorRecord; secrets: Map<string, string> }> {
    const prev = await this.get(userId, id)
    const { input } = this.d
    const kind = kindOf(prev)
    const now = this.d.now()
    const next: MonitorRecord = { ...prev, updated_at: new Date(now).toISOString() }
    const secrets = new Map<string, string>()
    kind.patch(prev, next, patch, input, now)
    if (patch.interval_seconds !== undefined) {
      next.interval_seconds = input.interval(patch.interval_seconds)
      if (next.next_run_at !== null)
        next.next_run_at = Math.min(next.next_run_at, now + next.interval_seconds * 1000)
    }
    if (patch.pagespeed !== undefined || patch.interval_seconds !== undefined)
      next.pagespeed = input.pagespeed(patch.pagespeed ?? prev.pagespeed ?? 'estimate', next.interval_seconds)
    if (patch.name !== undefined) next.name = patch.name
    // a name that is the old URL's host follows a new URL (the public label relies on it: names.ts)
    if (next.url !== prev.url && isHostName(next.name, prev.url)) next.name = defaultName(next.url)
    if (patch.assertions !== undefined) next.assertions = fittingAssertions(kind.type, patch.assertions)
    if (patch.ref !== undefined) next.ref = patch.ref
    if (patch.tags !== undefined) next.tags = normalizeTags(patch.tags)
    if (patch.alerts !== undefined) next.alerts = input.alertRules(patch.alerts, prev.alerts)
    if (patch.channels !== undefined) next.channels = input.channels(patch.channels, prev.channels, secrets)
    if (patch.paused === true && !prev.paused)
      Object.assign(next, { paused: true, paused_reason: 'user', next_run_at: null })
    if (patch.paused === false && prev.paused)
      Object.assign(next, { paused: false, paused_reason: null, next_run_at: now })
    kind.reschedule(prev, next, patch, now)
    const saved = await this.d.monitors.updateMonitor(next).catch(refTaken)
    if (!saved) throw new DomainError('not_found', NOT_FOUND)
    this.d.scheduleChanged()
    return { monitor: saved, secrets }
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.d.monitors.deleteMonitor(userId, id.toLowerCase())))
      throw new DomainError('not_found', NOT_FOUND)
  }
}
