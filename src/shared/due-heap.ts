/**
 * A binary min-heap of (due time, id): the scheduler's one timer only ever needs the earliest due
 * monitor, so 10,000 monitors cost O(log n) per run instead of 10,000 timers. Entries are never
 * removed in place: a monitor rescheduled, paused or deleted leaves a stale entry that the owner
 * recognises (its due time no longer matches) and skips when it surfaces.
 */
export interface DueEntry {
  due: number
  id: string
}

export class DueHeap {
  private readonly a: DueEntry[] = []

  get size(): number {
    return this.a.length
  }

  push(e: DueEntry): void {
    const a = this.a
    a.push(e)
    let i = a.length - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (a[p].due <= e.due) break
      a[i] = a[p]
      i = p
    }
    a[i] = e
  }

  peek(): DueEntry | undefined {
    return this.a[0]
  }

  pop(): DueEntry | undefined {
    const a = this.a
    const top = a[0]
    const last = a.pop()
    if (a.length > 0 && last) {
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        if (l >= a.length) break
        const r = l + 1
        const c = r < a.length && a[r].due < a[l].due ? r : l
        if (a[c].due >= last.due) break
        a[i] = a[c]
        i = c
      }
      a[i] = last
    }
    return top
  }
}
