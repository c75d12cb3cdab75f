/**
 * The embedded backend of maintenance windows (docs/decisions.md#monitoring-depth): one small
 * document, `<dataDir>/maintenance.json`, written durably like status-pages.json. Writes are
 * serialised; each applies its change to a copy and only makes it visible once it is on disk.
 */
import { join } from 'node:path'
import type { MaintenanceRecord, MaintenanceStore } from '../maintenance.js'
import type { Chain, LowdbContext } from './context.js'

interface MaintenanceDoc {
  version: 1
  windows: MaintenanceRecord[]
}

export class LowdbMaintenance implements MaintenanceStore {
  private doc: MaintenanceDoc = { version: 1, windows: [] }
  private readonly queue: Chain = { chain: Promise.resolve() }

  constructor(private readonly ctx: LowdbContext) {}

  private get file() {
    return join(this.ctx.dataDir, 'maintenance.json')
  }

  async load(): Promise<void> {
    const d = await this.ctx.adapter<MaintenanceDoc>(this.file).read()
    if (d === null) return
    if (!Array.isArray(d.windows)) throw new Error(`Corrupt ${this.file}`)
    this.doc = { version: 1, windows: d.windows }
  }

  private write<R>(change: (doc: MaintenanceDoc) => R): Promise<R> {
    return this.ctx.enqueue(this.queue, async () => {
      const next: MaintenanceDoc = structuredClone(this.doc)
      const result = change(next)
      await this.ctx.adapter<MaintenanceDoc>(this.file).write(next)
      this.doc = next
      return result
    })
  }

  /** Every window (copying the store: `db import`). */
  all(): MaintenanceRecord[] {
    return [...this.doc.windows]
  }

  createMaintenance(w: MaintenanceRecord): Promise<MaintenanceRecord> {
    return this.write((d) => {
      d.windows.push(w)
      return w
    })
  }

  async getMaintenance(userId: string, id: string) {
    return this.doc.windows.find((w) => w.id === id && w.user_id === userId)
  }

  async listMaintenance(userId: string) {
    return this.doc.windows.filter((w) => w.user_id === userId)
  }

  updateMaintenance(w: MaintenanceRecord): Promise<MaintenanceRecord | undefined> {
    if (!this.doc.windows.some((x) => x.id === w.id && x.user_id === w.user_id))
      return Promise.resolve(undefined)
    return this.write((d) => {
      const i = d.windows.findIndex((x) => x.id === w.id && x.user_id === w.user_id)
      if (i < 0) return undefined
      d.windows[i] = w
      return w
    })
  }

  deleteMaintenance(userId: string, id: string): Promise<boolean> {
    if (!this.doc.windows.some((w) => w.id === id && w.user_id === userId)) return Promise.resolve(false)
    return this.write((d) => {
      const before = d.windows.length
      d.windows = d.windows.filter((w) => !(w.id === id && w.user_id === userId))
      return d.windows.length < before
    })
  }
}
