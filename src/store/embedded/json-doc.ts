/**
 * One small whole-document file of the embedded store (status-incidents.json,
 * status-subscribers.json): writes are serialised; each applies its change to a copy, and the
 * copy is only made visible once it is on disk, so a failed write changes nothing.
 */
import { join } from 'node:path'
import type { Chain, LowdbContext } from './context.js'

export class JsonDoc<D extends object> {
  private data: D
  private readonly queue: Chain = { chain: Promise.resolve() }

  constructor(
    private readonly ctx: LowdbContext,
    private readonly name: string,
    private readonly empty: () => D,
    /** Whether a document read from disk has the expected shape. */
    private readonly valid: (d: D) => boolean,
  ) {
    this.data = empty()
  }

  private get file() {
    return join(this.ctx.dataDir, this.name)
  }

  /** The durable document; never changed in place. */
  get doc(): Readonly<D> {
    return this.data
  }

  async load(): Promise<void> {
    const d = await this.ctx.adapter<D>(this.file).read()
    if (d === null) return
    if (!this.valid(d)) throw new Error(`Corrupt ${this.file}`)
    this.data = d
  }

  write<R>(change: (doc: D) => R): Promise<R> {
    return this.ctx.enqueue(this.queue, async () => {
      const next = structuredClone(this.data)
      const result = change(next)
      await this.ctx.adapter<D>(this.file).write(next)
      this.data = next
      return result
    })
  }
}
