/**
 * Group commit for a small whole-document lowdb file (users.json, keys.json).
 *
 * Callers stage their change in memory, then `write()`. Writes never overlap: a write that arrives
 * while one is on its way joins the next one, which snapshots the staged state when it starts, so
 * many concurrent changes cost one file write. Readers see `onDurable`'s view, which is only
 * replaced once a snapshot is on disk: nothing unacknowledged is ever visible. When a write fails,
 * every change of its batch is undone (before the next snapshot is taken) and its callers reject.
 */
import type { Low } from 'lowdb'

interface Waiter {
  resolve: () => void
  reject: (err: unknown) => void
  undo?: () => void
}

export class DocWriter<T> {
  private batch: Waiter[] = []
  private running: Promise<void> | undefined

  constructor(
    private readonly db: Low<T>,
    private readonly snapshot: () => T,
    private readonly onDurable: (written: T) => void,
  ) {}

  /** Resolves once a snapshot taken after this call is on disk. */
  write(undo?: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.batch.push({ resolve, reject, undo })
      this.running ??= this.run()
    })
  }

  /** Resolves when no write is pending. */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  private async run(): Promise<void> {
    try {
      while (this.batch.length > 0) {
        const batch = this.batch
        this.batch = []
        const snap = this.snapshot()
        try {
          this.db.data = snap
          await this.db.write()
          this.onDurable(snap)
          for (const w of batch) w.resolve()
        } catch (err) {
          for (const w of batch) w.undo?.()
          for (const w of batch) w.reject(err)
        }
      }
    } finally {
      this.running = undefined
    }
  }
}
