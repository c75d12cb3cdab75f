/**
 * The embedded backend of the status-page concern (docs/decisions.md#the-public-face): one small document,
 * `<dataDir>/status-pages.json`, written durably like accounts.json. Writes are serialised; each
 * applies its change to a copy and only makes it visible once it is on disk, so a failed write
 * changes nothing. One process serves a data dir, so the slug check and the write are atomic.
 */
import { join } from 'node:path'
import {
  DomainTakenError,
  SlugTakenError,
  type StatusPageRecord,
  type StatusPageStore,
} from '../status-pages.js'
import type { Chain, LowdbContext } from './context.js'

interface StatusPagesDoc {
  version: 1
  pages: StatusPageRecord[]
}

/** Another page has the slug, or the domain. */
function refuseClash(pages: StatusPageRecord[], page: StatusPageRecord): void {
  for (const p of pages) {
    if (p.id === page.id) continue
    if (p.slug === page.slug) throw new SlugTakenError(page.slug)
    if (page.domain && p.domain === page.domain) throw new DomainTakenError(page.domain)
  }
}

export class LowdbStatusPages implements StatusPageStore {
  private doc: StatusPagesDoc = { version: 1, pages: [] }
  private readonly queue: Chain = { chain: Promise.resolve() }

  constructor(private readonly ctx: LowdbContext) {}

  private get file() {
    return join(this.ctx.dataDir, 'status-pages.json')
  }

  async load(): Promise<void> {
    const d = await this.ctx.adapter<StatusPagesDoc>(this.file).read()
    if (d === null) return
    if (!Array.isArray(d.pages)) throw new Error(`Corrupt ${this.file}`)
    this.doc = { version: 1, pages: d.pages }
  }

  private write<R>(change: (doc: StatusPagesDoc) => R): Promise<R> {
    return this.ctx.enqueue(this.queue, async () => {
      const next: StatusPagesDoc = structuredClone(this.doc)
      const result = change(next)
      await this.ctx.adapter<StatusPagesDoc>(this.file).write(next)
      this.doc = next
      return result
    })
  }

  /** Every page (copying the store: `db import`). */
  all(): StatusPageRecord[] {
    return [...this.doc.pages]
  }

  createStatusPage(page: StatusPageRecord): Promise<StatusPageRecord> {
    return this.write((d) => {
      refuseClash(d.pages, page)
      d.pages.push(page)
      return page
    })
  }

  async getStatusPage(userId: string, id: string) {
    return this.doc.pages.find((p) => p.id === id && p.user_id === userId)
  }

  async getStatusPageBySlug(slug: string) {
    return this.doc.pages.find((p) => p.slug === slug)
  }

  async getStatusPageByDomain(domain: string) {
    return this.doc.pages.find((p) => p.domain === domain)
  }

  async listStatusPages(userId: string) {
    return this.doc.pages.filter((p) => p.user_id === userId)
  }

  updateStatusPage(page: StatusPageRecord): Promise<StatusPageRecord | undefined> {
    return this.write((d) => {
      const i = d.pages.findIndex((p) => p.id === page.id && p.user_id === page.user_id)
      if (i < 0) return undefined
      refuseClash(d.pages, page)
      d.pages[i] = page
      return page
    })
  }

  deleteStatusPage(userId: string, id: string): Promise<boolean> {
    if (!this.doc.pages.some((p) => p.id === id && p.user_id === userId)) return Promise.resolve(false)
    return this.write((d) => {
      const before = d.pages.length
      d.pages = d.pages.filter((p) => !(p.id === id && p.user_id === userId))
      return d.pages.length < before
    })
  }
}
