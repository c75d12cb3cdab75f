import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Journal, readJournal } from '../../src/store/embedded/journal.js'
import { LowdbMonitorStore } from '../../src/store/embedded/monitors.js'
import { monitor } from '../store/contract/fixtures.js'
import { removeDir, tempDir } from '../store/helpers.js'

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeDir(d)
})

describe('the monitor journal (embedded store)', () => {
  it('commits concurrent appends together: far fewer fsyncs than lines, every one durable', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const file = join(dir, 'j.jsonl')
    const j = await Journal.open(file, 0)
    await Promise.all(Array.from({ length: 500 }, (_, i) => j.append({ i })))
    expect(j.stats.lines).toBe(500)
    expect(j.stats.syncs).toBeLessThan(50)
    await j.close()
    const { entries } = await readJournal<{ i: number }>(file)
    expect(entries.map((e) => e.i)).toEqual(Array.from({ length: 500 }, (_, i) => i))
  })

  it('drops a torn last line (never acknowledged) and appends after the last whole one', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const file = join(dir, 'j.jsonl')
    const j = await Journal.open(file, 0)
    await j.append({ a: 1 })
    await j.close()
    await appendFile(file, '{"a":2, "tor')
    const read = await readJournal<{ a: number }>(file)
    expect(read.entries).toEqual([{ a: 1 }])
    const j2 = await Journal.open(file, read.validBytes)
    await j2.append({ a: 3 })
    await j2.close()
    expect((await readFile(file, 'utf8')).trim().split('\n')).toEqual(['{"a":1}', '{"a":3}'])
  })

  it('folds the journal into a snapshot and loads the same state', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const a = new LowdbMonitorStore(dir, { compactBytes: 2000 })
    await a.load()
    const made = []
    for (let i = 0; i < 20; i++) made.push(await a.createMonitor(monitor('alice', Date.now() + i)))
    await a.updateMonitor({ ...made[0], name: 'renamed' })
    await a.compact()
    await a.deleteMonitor('alice', made[1].id)
    await a.close()
    const journal = await readFile(join(dir, 'monitors', 'journal.jsonl'), 'utf8')
    expect(journal.trim().split('\n')).toHaveLength(1)
    const b = new LowdbMonitorStore(dir)
    await b.load()
    const all = await b.userMonitors('alice')
    expect(all).toHaveLength(19)
    expect(all[0].name).toBe('renamed')
    await b.close()
  })
})
