/**
 * The lab: Lighthouse 12.8 (performance category, mobile, simulated throttling: its defaults) in
 * a pool of `concurrency` slots, each a warm Chromium of its own with a worker thread running
 * Lighthouse (src/lab/slot.ts), a fresh browser context per run; at most `concurrency` runs at
 * once (p-limit queues the rest, first come first served). A run that throws, crashes its browser
 * or outlives its timeout gives a LabFallback instead of a measurement — never an exception — and
 * a browser that died or held a stopped run is replaced before its slot's next run.
 *
 * Lighthouse 12.8 rather than 13: 13.x requires Node ≥ 22.19 and the service runs on Node 20, 22
 * and 24; 12.8 scores with the same metric weights and curves (scoring.md §2).
 */
import { performance } from 'node:perf_hooks'
import pLimit from 'p-limit'
import { findChromium } from './browser.js'
import type { RunReply } from './lighthouse-run.js'
import { startGuardedProxy, type GuardedProxy } from './proxy.js'
import { Slot, type SlotResult } from './slot.js'
import {
  LAB_DEFAULTS,
  type LabFallback,
  type LabFallbackReason,
  type LabMeasured,
  type LabOptions,
  type LabOutcome,
} from './types.js'

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
  private readonly slots: Slot[]
  private readonly idle: Slot[]
  private closed = false
  private readonly limit: ReturnType<typeof pLimit>
  readonly timeoutMs: number
  /** Runs at once: one per slot. */
  readonly concurrency: number
  private readonly counts = { runs: 0, measured: 0, active: 0, queued: 0 }
  private readonly fallbacks: Record<LabFallbackReason, number> = { timeout: 0, crashed: 0, failed: 0 }
  private readonly log: (line: string) => void

  private constructor(
    readonly browserPath: string,
    private readonly proxy: GuardedProxy,
    opts: LabOptions,
  ) {
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? LAB_DEFAULTS.concurrency))
    this.timeoutMs = opts.timeoutMs ?? LAB_DEFAULTS.timeoutMs
    this.limit = pLimit(this.concurrency)
    this.log = opts.log ?? (() => {})
    this.slots = Array.from(
      { length: this.concurrency },
      () => new Slot(browserPath, proxy.address, this.log),
    )
    this.idle = [...this.slots]
  }

  /** Finds (for 'auto') and starts the browsers, so a wrong path stops `serve` at once. */
  static async start(opts: LabOptions): Promise<Lab> {
    const path = opts.browser === 'auto' ? findChromium() : opts.browser
    if (!path)
      throw new LabStartError(
        '--lab-browser auto found no Chromium or Chrome: install one (e.g. apt-get install chromium) or pass its path',
      )
    const proxy = await startGuardedProxy({ allowPrivateTargets: opts.allowPrivateTargets === true })
    const lab = new Lab(path, proxy, opts)
    try {
      await Promise.all(lab.slots.map((s) => s.warmUp()))
    } catch (err) {
      await lab.close()
      throw new LabStartError(`--lab-browser ${path} did not start: ${(err as Error).message.split('\n')[0]}`)
    }
    return lab
  }

  get stats(): LabStats {
    return {
      ...this.counts,
      fallbacks: { ...this.fallbacks },
      restarts: this.slots.reduce((n, s) => n + s.restarts, 0),
    }
  }

  /** The first slot's Chromium main process id while it runs (for the bench's memory reading). */
  get browserPid(): number | null {
    return this.slots[0]?.browserPid ?? null
  }

  /** Every slot's Chromium main process id (null for one not running), by slot. */
  get browserPids(): Array<number | null> {
    return this.slots.map((s) => s.browserPid)
  }

  /** Requests the browser was refused by the SSRF guard (newest last, at most 100). */
  get refused(): readonly string[] {
    return this.proxy.refused
  }

  /** Measures `url`; resolves with a measurement or a fallback, never rejects. */
  measure(url: string): Promise<LabOutcome> {
    const queuedAt = performance.now()
    this.counts.queued++
    return this.limit(async () => {
      this.counts.queued--
      this.counts.active++
      // the limit lets no more runs through than there are slots, so one is idle; lowest first
      const slot = this.idle.sort((a, b) => this.slots.indexOf(a) - this.slots.indexOf(b)).shift()!
      const queuedMs = Math.round(performance.now() - queuedAt)
      try {
        const outcome = await this.runOn(slot, url, queuedMs)
        this.counts.runs++
        if (outcome.method === 'lab') this.counts.measured++
        else this.fallbacks[outcome.fallback]++
        return outcome
      } finally {
        this.idle.push(slot)
        this.counts.active--
      }
    })
  }

  async close(): Promise<void> {
    this.closed = true
    this.limit.clearQueue()
    await Promise.all(this.slots.map((s) => s.close()))
    await this.proxy.close()
  }

  /** Kills slot `index`'s browser (tests: a crash mid-run); its next run starts a new one. */
  async killBrowser(index = 0): Promise<void> {
    this.slots[index]?.kill()
  }

  private async runOn(slot: Slot, url: string, queuedMs: number): Promise<LabOutcome> {
    const started = performance.now()
    const fail = (fallback: LabFallbackReason, reason: string): LabFallback => ({
      method: 'estimate',
      fallback,
      reason,
      durationMs: Math.round(performance.now() - started),
      queuedMs,
    })
    if (this.closed) return fail('failed', 'the lab is closed')
    let result: SlotResult
    try {
      result = await slot.run(url, this.timeoutMs)
    } catch (err) {
      return fail('failed', `the lab browser did not start (${firstLine(err)})`)
    }
    if ('timeout' in result)
      return fail('timeout', `the lab run took longer than ${Math.round(this.timeoutMs / 1000)} s`)
    if ('crashed' in result) return fail('crashed', 'the lab browser crashed during the run')
    if (!result.ok) return fail('failed', `Lighthouse could not measure the page (${result.error})`)
    return this.read(result, fail, started, queuedMs)
  }

  private read(
    reply: Extract<RunReply, { ok: true }>,
    fail: (f: LabFallbackReason, r: string) => LabFallback,
    started: number,
    queuedMs: number,
  ): LabOutcome {
    if (reply.runtimeError) return fail('failed', `Lighthouse: ${reply.runtimeError}`)
    const { score } = reply
    const values = reply.metrics
    const missing = (['fcp', 'lcp', 'tbt', 'cls', 'si'] as const).filter((k) => typeof values[k] !== 'number')
    if (typeof score !== 'number' || missing.length > 0)
      return fail('failed', `Lighthouse could not compute ${missing.join(', ') || 'the score'}`)
    const measured: LabMeasured = {
      method: 'lab',
      lighthouseVersion: reply.lighthouseVersion,
      score: Math.round(score * 100),
      metrics: {
        fcp: Math.round(values.fcp!),
        lcp: Math.round(values.lcp!),
        tbt: Math.round(values.tbt!),
        cls: Math.round(values.cls! * 1000) / 1000,
        si: Math.round(values.si!),
      },
      finalUrl: reply.finalUrl,
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
