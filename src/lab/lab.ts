/**
 * The lab: Lighthouse 12.8 (performance category, mobile, simulated throttling: its defaults) in
 * one warm Chromium, a fresh browser context per run, at most `concurrency` runs at once (p-limit
 * queues the rest, first come first served). A run that throws, crashes the browser or outlives
 * its timeout gives a LabFallback instead of a measurement — never an exception — and a browser
 * that died or would not let go of a stopped run is replaced before the next run.
 *
 * Lighthouse 12.8 rather than 13: 13.x requires Node ≥ 22.19 and the service runs on Node 20, 22
 * and 24; 12.8 scores with the same metric weights and curves (scoring.md §2).
 */
import { performance } from 'node:perf_hooks'
import lighthouse, { type Flags } from 'lighthouse'
import pLimit from 'p-limit'
import type { BrowserContext } from 'puppeteer-core'
import { findChromium, launchBrowser, type WarmBrowser } from './browser.js'
import { startGuardedProxy, type GuardedProxy } from './proxy.js'
import {
  LAB_DEFAULTS,
  type LabFallback,
  type LabFallbackReason,
  type LabMeasured,
  type LabOptions,
  type LabOutcome,
} from './types.js'

const FLAGS: Flags = {
  output: 'json',
  logLevel: 'silent',
  onlyCategories: ['performance'],
  // Lighthouse's defaults, said out loud: mobile, simulated throttling (RTT 150 ms, 1.6 Mbps, CPU 4×)
  formFactor: 'mobile',
  throttlingMethod: 'simulate',
}

/**
 * Lighthouse runs that may overlap: one. Two at once in one browser and one Node process break
 * each other (measured with bench/lab-cost.js at --lab-concurrency 2: 9 of 12 runs fell back with
 * TRACING_ALREADY_STARTED, tracing being browser-wide, or 'The "start lh:runner:gather"
 * performance mark has not been set', Lighthouse's timing marks being process-wide). Until runs
 * get a browser and a process (or worker thread) each, a higher --lab-concurrency queues them.
 */
const MAX_OVERLAPPING_RUNS = 1

/** After a timeout, how long the stopped run may take to let go before the browser is replaced. */
const STOP_GRACE_MS = 5_000

export class LabStartError extends Error {
  override readonly name = 'LabStartError'
}

export interface LabStats {
  runs: number
  measured: number
  fallbacks: Record<LabFallbackReason, number>
  restarts: number
  active: number
  queued: number
}

export class Lab {
  private warm: WarmBrowser | null = null
  private launching: Promise<WarmBrowser> | null = null
  private closed = false
  private readonly limit: ReturnType<typeof pLimit>
  readonly timeoutMs: number
  /** Runs at once: the requested concurrency, at most MAX_OVERLAPPING_RUNS. */
  readonly concurrency: number
  readonly stats: LabStats = {
    runs: 0,
    measured: 0,
    fallbacks: { timeout: 0, crashed: 0, failed: 0 },
    restarts: 0,
    active: 0,
    queued: 0,
  }

  private constructor(
    readonly browserPath: string,
    private readonly proxy: GuardedProxy,
    opts: LabOptions,
  ) {
    const requested = opts.concurrency ?? LAB_DEFAULTS.concurrency
    this.concurrency = Math.min(requested, MAX_OVERLAPPING_RUNS)
    this.timeoutMs = opts.timeoutMs ?? LAB_DEFAULTS.timeoutMs
    this.limit = pLimit(this.concurrency)
    this.log = opts.log ?? (() => {})
    if (requested > this.concurrency)
      this.log(
        `lab: --lab-concurrency ${requested} runs one at a time: Lighthouse 12.8 runs cannot overlap in one browser and process`,
      )
  }
  private readonly log: (line: string) => void

  /** Finds (for 'auto') and starts the browser, so a wrong path stops `serve` at once. */
  static async start(opts: LabOptions): Promise<Lab> {
    const path = opts.browser === 'auto' ? findChromium() : opts.browser
    if (!path)
      throw new LabStartError(
        '--lab-browser auto found no Chromium or Chrome: install one (e.g. apt-get install chromium) or pass its path',
      )
    const proxy = await startGuardedProxy({ allowPrivateTargets: opts.allowPrivateTargets === true })
    const lab = new Lab(path, proxy, opts)
    try {
      await lab.browser()
    } catch (err) {
      await proxy.close()
      throw new LabStartError(`--lab-browser ${path} did not start: ${(err as Error).message.split('\n')[0]}`)
    }
    return lab
  }

  /** Chromium's main process id while it runs (for the bench's memory reading). */
  get browserPid(): number | null {
    return this.warm?.alive() ? this.warm.pid : null
  }

  /** Requests the browser was refused by the SSRF guard (newest last, at most 100). */
  get refused(): readonly string[] {
    return this.proxy.refused
  }

  /** Measures `url`; resolves with a measurement or a fallback, never rejects. */
  measure(url: string): Promise<LabOutcome> {
    const queuedAt = performance.now()
    this.stats.queued++
    return this.limit(async () => {
      this.stats.queued--
      this.stats.active++
      const queuedMs = Math.round(performance.now() - queuedAt)
      try {
        const outcome = await this.runOnce(url, queuedMs)
        this.stats.runs++
        if (outcome.method === 'lab') this.stats.measured++
        else this.stats.fallbacks[outcome.fallback]++
        return outcome
      } finally {
        this.stats.active--
      }
    })
  }

  async close(): Promise<void> {
    this.closed = true
    this.limit.clearQueue()
    const warm = this.warm ?? (await this.launching?.catch(() => null))
    this.warm = null
    await warm?.close()
    await this.proxy.close()
  }

  /** Kills the browser (tests: a crash mid-run); the next run starts a new one. */
  async killBrowser(): Promise<void> {
    const warm = this.warm
    if (warm) process.kill(warm.pid, 'SIGKILL')
  }

  private async browser(): Promise<WarmBrowser> {
    if (this.warm?.alive()) return this.warm
    if (this.warm) {
      const dead = this.warm
      this.warm = null
      this.stats.restarts++
      this.log('lab: the browser died; starting a new one')
      await dead.close().catch(() => {})
    }
    this.launching ??= launchBrowser(this.browserPath, this.proxy.address).finally(() => {
      this.launching = null
    })
    const warm = await this.launching
    if (this.closed) {
      await warm.close()
      throw new Error('the lab is closed')
    }
    this.warm = warm
    return warm
  }

  private async runOnce(url: string, queuedMs: number): Promise<LabOutcome> {
    const started = performance.now()
    const fail = (fallback: LabFallbackReason, reason: string): LabFallback => ({
      method: 'estimate',
      fallback,
      reason,
      durationMs: Math.round(performance.now() - started),
      queuedMs,
    })
    let warm: WarmBrowser
    try {
      warm = await this.browser()
    } catch (err) {
      return fail('failed', `the lab browser did not start (${firstLine(err)})`)
    }
    let context: BrowserContext | null = null
    const run = (async () => {
      context = await warm.browser.createBrowserContext()
      const page = await context.newPage()
      return lighthouse(url, FLAGS, undefined, page)
    })()
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs)
    })
    try {
      const first = await Promise.race([
        run.then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        ),
        timedOut,
      ])
      if (first === 'timeout') {
        await this.stop(run, context, warm)
        return fail('timeout', `the lab run took longer than ${Math.round(this.timeoutMs / 1000)} s`)
      }
      if ('error' in first) {
        if (!warm.alive()) return fail('crashed', 'the lab browser crashed during the run')
        return fail('failed', `Lighthouse could not measure the page (${firstLine(first.error)})`)
      }
      return this.read(first.result, fail, started, queuedMs)
    } finally {
      clearTimeout(timer)
      const ctx = context as BrowserContext | null
      if (ctx && warm.alive()) await ctx.close().catch(() => {})
    }
  }

  /** A stopped run: close its context; a run that still will not end takes the browser with it. */
  private async stop(run: Promise<unknown>, context: BrowserContext | null, warm: WarmBrowser) {
    await context?.close().catch(() => {})
    const ended = await Promise.race([
      run.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS).unref()),
    ])
    if (!ended) {
      this.log('lab: a timed-out run did not stop; replacing the browser')
      await warm.close().catch(() => {})
    }
  }

  private read(
    result: Awaited<ReturnType<typeof lighthouse>>,
    fail: (f: LabFallbackReason, r: string) => LabFallback,
    started: number,
    queuedMs: number,
  ): LabOutcome {
    const lhr = result?.lhr
    if (!lhr) return fail('failed', 'Lighthouse returned no report')
    if (lhr.runtimeError) return fail('failed', `Lighthouse: ${lhr.runtimeError.code}`)
    const score = lhr.categories.performance?.score
    const metric = (id: string) => lhr.audits[id]?.numericValue
    const values = {
      fcp: metric('first-contentful-paint'),
      lcp: metric('largest-contentful-paint'),
      tbt: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
      si: metric('speed-index'),
    }
    const missing = Object.entries(values).filter(([, v]) => typeof v !== 'number')
    if (typeof score !== 'number' || missing.length > 0)
      return fail(
        'failed',
        `Lighthouse could not compute ${missing.map(([k]) => k).join(', ') || 'the score'}`,
      )
    const measured: LabMeasured = {
      method: 'lab',
      lighthouseVersion: lhr.lighthouseVersion,
      score: Math.round(score * 100),
      metrics: {
        fcp: Math.round(values.fcp!),
        lcp: Math.round(values.lcp!),
        tbt: Math.round(values.tbt!),
        cls: Math.round(values.cls! * 1000) / 1000,
        si: Math.round(values.si!),
      },
      finalUrl: lhr.finalDisplayedUrl,
      durationMs: Math.round(performance.now() - started),
      queuedMs,
    }
    return measured
  }
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return (text.split('\n')[0] ?? '').slice(0, 160)
}
