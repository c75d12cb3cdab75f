/**
 * What every concern of the embedded backend shares: the data dir, the clock, write statistics,
 * and the write queues (writes to one file are serialised on a chain; close() waits for them all).
 */
import { DurableJSONFile, type WriteStats } from './durable-file.js'
import { StoreClosedError } from '../errors.js'

export interface Chain {
  chain: Promise<unknown>
}

export class LowdbContext {
  /** Bytes and files written (tests and benchmarks measure write cost with it). */
  readonly stats: WriteStats = { writes: 0, bytesWritten: 0 }
  closing = false
  private readonly pending = new Set<Promise<unknown>>()

  constructor(
    readonly dataDir: string,
    readonly now: () => number,
  ) {}

  adapter<T>(file: string): DurableJSONFile<T> {
    return new DurableJSONFile<T>(file, this.stats)
  }

  assertOpen(): void {
    if (this.closing) throw new StoreClosedError()
  }

  /** Runs fn after everything queued on `holder`; failures do not break the chain. */
  enqueue<T>(holder: Chain, fn: () => Promise<T>): Promise<T> {
    try {
      this.assertOpen()
    } catch (err) {
      return Promise.reject(err)
    }
    const p = holder.chain.then(fn)
    const settled = p.then(
      () => undefined,
      () => undefined,
    )
    holder.chain = settled
    this.pending.add(settled)
    void settled.then(() => this.pending.delete(settled))
    return p
  }

  /** Resolves when every queued write has settled. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending])
  }
}

export const iso = (ms: number) => new Date(ms).toISOString()
