/**
 * The embedded store's journal on a disk that fails (docs/decisions.md#faults): short writes are finished, a
 * full disk fails the write without leaving a torn line behind, memory follows the disk, and a
 * torn line from an older version never stops the store from starting.
 */
import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FileHandle } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { Journal, readJournal, type WriteFn } from '../../../src/store/embedded/journal.js'
import { LowdbMonitorStore } from '../../../src/store/embedded/monitors.js'
import { StorageFullError, unavailableDependency } from '../../../src/store/unavailable.js'
import { monitor } from '../contract/fixtures.js'
import { removeDir, tempDir } from '../helpers.js'

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeDir(d)
})

async function dir(): Promise<string> {
  const d = await tempDir()
  dirs.push(d)
  return d
}

/** A disk with `free` bytes left: writes what fits (a short write), then fails with ENOSPC. */
function disk(free: number) {
  const state = { free }
  const write: WriteFn = async (fh: FileHandle, buf: Buffer) => {
    if (state.free <= 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    const n = Math.min(buf.length, state.free, 7) // at most 7 bytes a call: short writes all along
    const { bytesWritten } = await fh.write(buf.subarray(0, n))
    state.free -= bytesWritten
    return bytesWritten
  }
  return { state, write }
}

describe('the journal on a failing disk', () => {
  it('finishes short writes: every acknowledged line is whole', async () => {
    const file = join(await dir(), 'j.jsonl')
    const d = disk(Infinity)
    const j = await Journal.open(file, 0, d.write)
    await Promise.all(Array.from({ length: 50 }, (_, i) => j.append({ i, pad: 'x'.repeat(i) })))
    await j.close()
    const { entries, warnings } = await readJournal<{ i: number }>(file)
    expect(entries.map((e) => e.i)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(warnings).toEqual([])
  })

  it('fails the append when the disk fills mid-line, cuts the torn bytes off, and works once space returns', async () => {
    const file = join(await dir(), 'j.jsonl')
    const d = disk(30)
    const j = await Journal.open(file, 0, d.write)
    await j.append({ a: 1 }) // 8 bytes
    const applied: number[] = []
    const failed = await j
      .append({ a: 2, pad: 'x'.repeat(40) }, () => applied.push(2))
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(failed).toBeInstanceOf(StorageFullError)
    expect(unavailableDependency(failed)).toBe('disk')
    expect(applied).toEqual([]) // never acknowledged, never applied
    expect((await stat(file)).size).toBe(8) // the partial line was cut off
    d.state.free = Infinity
    await j.append({ a: 3 }, () => applied.push(3))
    expect(applied).toEqual([3])
    await j.close()
    const { entries, warnings } = await readJournal<{ a: number }>(file)
    expect(entries).toEqual([{ a: 1 }, { a: 3 }])
    expect(warnings).toEqual([])
  })

  it('starts on a journal with a torn line in the middle (older versions): skips it with a warning', async () => {
    const file = join(await dir(), 'j.jsonl')
    await writeFile(file, '{"a":1}\n{"a":2,"pa{"a":3}\n{"a":4}\n{"a":5,')
    const { entries, warnings, validBytes } = await readJournal<{ a: number }>(file)
    expect(entries).toEqual([{ a: 1 }, { a: 4 }])
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(/skipped an unreadable line/)
    expect(warnings[1]).toMatch(/cut a torn last line/)
    const j = await Journal.open(file, validBytes)
    await j.append({ a: 6 })
    await j.close()
    expect((await readFile(file, 'utf8')).endsWith('{"a":4}\n{"a":6}\n')).toBe(true)
  })
})

describe('the monitor store on a full disk', () => {
  it('changes memory only after the line is on disk, and recovers without a restart', async () => {
    const d = await dir()
    const disk0 = disk(Infinity)
    const warnings: string[] = []
    const store = new LowdbMonitorStore(d, { journalWrite: disk0.write, warn: (l) => warnings.push(l) })
    await store.load()
    const first = await store.createMonitor(monitor('alice', Date.now()))
    disk0.state.free = 10
    const m = monitor('alice', Date.now() + 1)
    await expect(store.createMonitor(m)).rejects.toBeInstanceOf(StorageFullError)
    expect(await store.getMonitor('alice', m.id)).toBeUndefined()
    await expect(store.updateMonitor({ ...first, name: 'renamed' })).rejects.toBeInstanceOf(StorageFullError)
    expect((await store.getMonitor('alice', first.id))?.name).toBe(first.name)
    disk0.state.free = Infinity
    await store.createMonitor(m)
    await store.close()
    const again = new LowdbMonitorStore(d, { warn: (l) => warnings.push(l) })
    await again.load()
    expect((await again.userMonitors('alice')).map((x) => x.id).sort()).toEqual([first.id, m.id].sort())
    expect(warnings).toEqual([])
    await again.close()
  })
})
