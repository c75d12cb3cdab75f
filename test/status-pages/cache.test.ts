/**
 * The public page's cache against the store (docs/decisions.md#the-public-face): a view nothing
 * was written since is served without reading the store (on PostgreSQL a read is a round trip);
 * a write through the store, even straight to it, shows at the next request; other instances'
 * writes, which this process cannot count, show once the view expires.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PublicPages } from '../../src/status-pages/index.js'
import { NO_HISTORY } from '../../src/status-pages/uptime.js'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import type { StatusPageRecord } from '../../src/store/status-pages.js'
import { writeCount } from '../../src/store/writes.js'
import { removeDir, tempDir } from '../store/helpers.js'

describe('public page cache', () => {
  let dir: string
  let store: LowdbStore
  let page: StatusPageRecord
  let reads = 0
  let clock = 1_000_000

  beforeEach(async () => {
    dir = await tempDir()
    store = await openLowdbStore(dir)
    const at = new Date().toISOString()
    page = await store.statusPages.createStatusPage({
      id: '01a21659-9214-71ac-9122-74c5de637e05',
      user_id: 'owner',
      slug: 'cached',
      title: 'First',
      description: null,
      monitor_ids: [],
      show_urls: false,
      created_at: at,
      updated_at: at,
    })
    reads = 0
    const get = store.statusPages.getStatusPageBySlug.bind(store.statusPages)
    store.statusPages.getStatusPageBySlug = (slug: string) => {
      reads++
      return get(slug)
    }
  })
  afterEach(async () => {
    await store.close()
    await removeDir(dir)
  })

  const pagesOf = (writes?: () => number) =>
    new PublicPages({
      pages: store.statusPages,
      monitors: store.monitors,
      uptime: NO_HISTORY,
      now: () => clock,
      writes,
    })

  it('serves a view nothing was written since without reading the store', async () => {
    const pages = pagesOf(writeCount(store))
    expect((await pages.view('cached'))?.model.title).toBe('First')
    await pages.view('cached')
    await pages.view('cached')
    expect(reads).toBe(1)
  })

  it('shows a write made straight through the store at the next request', async () => {
    const pages = pagesOf(writeCount(store))
    await pages.view('cached')
    page = (await store.statusPages.updateStatusPage({ ...page, title: 'Second', updated_at: 'later' }))!
    expect((await pages.view('cached'))?.model.title).toBe('Second')
    expect(reads).toBe(2)
  })

  it('reads again once the view expires (writes this process cannot count)', async () => {
    const pages = pagesOf(writeCount(store))
    await pages.view('cached')
    clock += 31_000
    await pages.view('cached')
    expect(reads).toBe(2)
  })

  it('without a write count, reads on every request', async () => {
    const pages = pagesOf()
    await pages.view('cached')
    await pages.view('cached')
    expect(reads).toBe(2)
  })
})
