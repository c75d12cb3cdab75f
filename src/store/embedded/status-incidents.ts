/** The embedded backend of status-page incidents (docs/status-pages.md): `<dataDir>/status-incidents.json`. */
import type {
  IncidentUpdateEffect,
  StatusIncidentRecord,
  StatusIncidentStore,
  StatusIncidentUpdateRecord,
} from '../status-incidents.js'
import type { LowdbContext } from './context.js'
import { JsonDoc } from './json-doc.js'

interface IncidentsDoc {
  version: 1
  incidents: StatusIncidentRecord[]
}

export class LowdbStatusIncidents implements StatusIncidentStore {
  private readonly d: JsonDoc<IncidentsDoc>

  constructor(ctx: LowdbContext) {
    this.d = new JsonDoc<IncidentsDoc>(
      ctx,
      'status-incidents.json',
      () => ({ version: 1, incidents: [] }),
      (d) => Array.isArray(d.incidents),
    )
  }

  load(): Promise<void> {
    return this.d.load()
  }

  private find(pageId: string, id: string) {
    return this.d.doc.incidents.find((i) => i.id === id && i.page_id === pageId)
  }

  createIncident(incident: StatusIncidentRecord): Promise<StatusIncidentRecord> {
    return this.d.write((doc) => {
      doc.incidents.push(incident)
      return incident
    })
  }

  async getIncident(pageId: string, id: string) {
    return this.find(pageId, id)
  }

  async listIncidents(pageId: string) {
    return this.d.doc.incidents.filter((i) => i.page_id === pageId).sort((a, b) => (a.id < b.id ? 1 : -1))
  }

  /** Applies `change` to the incident in a copy of the document; undefined when it is gone. */
  private change(pageId: string, id: string, change: (i: StatusIncidentRecord) => StatusIncidentRecord) {
    if (!this.find(pageId, id)) return Promise.resolve(undefined)
    return this.d.write((doc) => {
      const at = doc.incidents.findIndex((i) => i.id === id && i.page_id === pageId)
      if (at < 0) return undefined
      doc.incidents[at] = change(doc.incidents[at])
      return doc.incidents[at]
    })
  }

  updateIncident(incident: StatusIncidentRecord) {
    return this.change(incident.page_id, incident.id, (prev) => ({ ...incident, updates: prev.updates }))
  }

  appendIncidentUpdate(
    pageId: string,
    id: string,
    update: StatusIncidentUpdateRecord,
    effect: IncidentUpdateEffect,
  ) {
    return this.change(pageId, id, (prev) => ({ ...prev, ...effect, updates: [...prev.updates, update] }))
  }

  deleteIncident(pageId: string, id: string): Promise<boolean> {
    if (!this.find(pageId, id)) return Promise.resolve(false)
    return this.d.write((doc) => {
      const before = doc.incidents.length
      doc.incidents = doc.incidents.filter((i) => !(i.id === id && i.page_id === pageId))
      return doc.incidents.length < before
    })
  }

  async deletePageIncidents(pageId: string): Promise<void> {
    if (!this.d.doc.incidents.some((i) => i.page_id === pageId)) return
    await this.d.write((doc) => {
      doc.incidents = doc.incidents.filter((i) => i.page_id !== pageId)
    })
  }
}
