// The lab (src/lab/): Lighthouse 12.8 in a real Chromium driven over a pipe, a fresh context per
// run, falling back to the estimate on a timeout or a killed browser, never rejecting.
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { Lab } from '../../src/lab/index.js'
import { describeLab, labSite, page } from './helpers.js'

describeLab('lab runs in Chromium', () => {
  let lab: Lab
  let site: Awaited<ReturnType<typeof labSite>>
  const hang: Array<() => void> = []
  const logged: string[] = []

  beforeAll(async () => {
    site = await labSite((req, res) => {
      const html = (body: string, headers: Record<string, string> = {}) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(page(body))
      if (req.url === '/set')
        html(`<h1>Sets state</h1><script>localStorage.setItem('lab', 'one')</script>`, {
          'set-cookie': 'labstate=one; Path=/; Max-Age=3600',
        })
      else if (req.url === '/read')
        html(
          `<h1>Reads state</h1><script>fetch('/storage?' + (localStorage.getItem('lab') ?? 'none'))</script>`,
        )
      else if (req.url?.startsWith('/storage')) res.writeHead(204).end()
      else if (req.url === '/hang') hang.push(() => res.destroy())
      else return false
      return true
    })
    lab = await Lab.start({
      browser: 'auto',
      allowPrivateTargets: true,
      timeoutMs: 90_000,
      log: (line) => logged.push(line),
    })
  }, 60_000)

  afterAll(async () => {
    for (const h of hang) h()
    await lab?.close()
    await site?.close()
  })

  it('measures a page with Lighthouse 12.8, then a second page sees no cookie or storage of the first', async () => {
    const first = await lab.measure(site.url('/set'))
    expect(first).toMatchObject({ method: 'lab', lighthouseVersion: expect.stringMatching(/^12\.8\./) })
    if (first.method !== 'lab') return
    expect(first.score).toBeGreaterThanOrEqual(0)
    expect(first.score).toBeLessThanOrEqual(100)
    for (const k of ['fcp', 'lcp', 'tbt', 'cls', 'si'] as const)
      expect(typeof first.metrics[k]).toBe('number')
    expect(first.metrics.fcp).toBeGreaterThan(0)

    const second = await lab.measure(site.url('/read'))
    expect(second.method).toBe('lab')
    const reads = site.seen.filter((s) => s.path === '/read')
    expect(reads.length).toBeGreaterThan(0)
    expect(reads.every((r) => !r.cookie?.includes('labstate'))).toBe(true)
    const storage = site.seen.filter((s) => s.path.startsWith('/storage'))
    expect(storage.length).toBeGreaterThan(0)
    expect(storage.every((s) => s.path === '/storage?none')).toBe(true)
  }, 240_000)

  it('talks to Chromium over a pipe, not a TCP port; keeps the sandbox unless it cannot, and then says why', async () => {
    const args = (await readFile(`/proc/${lab.browserPid}/cmdline`, 'utf8')).split('\0')
    expect(args).toContain('--remote-debugging-pipe')
    expect(args.filter((a) => a.startsWith('--remote-debugging-port'))).toEqual([])
    const without = logged.filter((l) => l.includes('without its sandbox'))
    if (process.getuid?.() === 0) {
      // Chromium refuses its sandbox as root (CI runs as root): once, with the reason
      expect(args).toContain('--no-sandbox')
      expect(without).toEqual([expect.stringMatching(/serve runs as root/)])
    } else {
      expect(args).not.toContain('--no-sandbox')
      expect(without).toEqual([])
    }
  })

  it("measures two accounts' checks asked for at once with --lab-concurrency 2, each in a browser of its own", async () => {
    const two = await Lab.start({
      browser: 'auto',
      allowPrivateTargets: true,
      concurrency: 2,
      timeoutMs: 120_000,
    })
    try {
      expect(two.concurrency).toBe(2)
      const pids = two.browserPids
      expect(pids.every((p) => typeof p === 'number')).toBe(true)
      expect(new Set(pids).size).toBe(2)
      // before: one browser, one process: TRACING_ALREADY_STARTED or a missing Lighthouse mark, so a fallback
      const outcomes = await Promise.all([
        two.measure(site.url('/read'), 'a'),
        two.measure(site.url('/set'), 'b'),
      ])
      expect(outcomes.map((o) => o.method)).toEqual(['lab', 'lab'])
      // both ran at once: neither waited in the queue for the other
      expect(outcomes.every((o) => o.queuedMs < 1000)).toBe(true)
    } finally {
      await two.close()
    }
  }, 240_000)

  it('a browser killed in one slot fails only its own run; the other slot measures', async () => {
    const two = await Lab.start({
      browser: 'auto',
      allowPrivateTargets: true,
      concurrency: 2,
      timeoutMs: 120_000,
    })
    try {
      const doomed = two.measure(site.url('/hang'), 'a') // the lowest idle slot: 0
      const other = two.measure(site.url('/read'), 'b') // slot 1
      await new Promise((r) => setTimeout(r, 1500))
      const [pid0, pid1] = two.browserPids
      await two.killBrowser(0)
      const [a, b] = await Promise.all([doomed, other])
      expect(a).toMatchObject({ method: 'estimate', fallback: 'crashed' })
      expect(b.method).toBe('lab')
      expect(two.browserPids[1]).toBe(pid1)

      const again = await Promise.all([
        two.measure(site.url('/read'), 'a'),
        two.measure(site.url('/read'), 'b'),
      ])
      expect(again.map((o) => o.method)).toEqual(['lab', 'lab'])
      expect(two.browserPids[0]).not.toBe(pid0)
      expect(two.stats.restarts).toBe(1)
    } finally {
      await two.close()
    }
  }, 240_000)

  it('falls back to the estimate when a run outlives its timeout, and says so', async () => {
    const short = await Lab.start({ browser: 'auto', allowPrivateTargets: true, timeoutMs: 25_000 })
    try {
      const outcome = await short.measure(site.url('/hang'))
      expect(outcome).toMatchObject({ method: 'estimate', fallback: 'timeout' })
      if (outcome.method === 'estimate') expect(outcome.reason).toMatch(/longer than 25 s/)
      // the slot comes back: a new browser, and the next page is measured
      const after = await short.measure(site.url('/read'))
      expect(after.method).toBe('lab')
    } finally {
      await short.close()
    }
  }, 120_000)

  it('falls back when the browser is killed mid-run, and the next run gets a new browser', async () => {
    const pending = lab.measure(site.url('/hang'))
    await new Promise((r) => setTimeout(r, 1500))
    const pid = lab.browserPid
    expect(pid).not.toBeNull()
    await lab.killBrowser()
    const outcome = await pending
    expect(outcome.method).toBe('estimate')
    expect(outcome).toMatchObject({ method: 'estimate', fallback: 'crashed' })

    const after = await lab.measure(site.url('/read'))
    expect(after.method).toBe('lab')
    expect(lab.browserPid).not.toBe(pid)
    expect(lab.stats.restarts).toBeGreaterThanOrEqual(1)
  }, 240_000)
})
