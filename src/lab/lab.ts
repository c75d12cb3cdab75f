/**
 * The lab: Lighthouse 12.8 (performance category, mobile, simulated throttling: its defaults) in
 * a pool of `concurrency` slots, each a warm Chromium of its own with a worker thread running
 * Lighthouse (src/lab/slot.ts), a fresh browser context per run; at most `concurrency` runs at
 * once, shared fairly between accounts with a bounded wait (src/lab/fair-share.ts). A run that
 * throws, crashes its browser, outlives its timeout or finds no slot in time gives a LabFallback
 * instead of a measurement — never an exception — and a browser that died or held a stopped run
 * is replaced before its slot's next run.
 *
 * Lighthouse 12.8 rather than 13: 13.x requires Node ≥ 22.19 and the service runs on Node 20, 22
 * and 24; 12.8 scores with the same metric weights and curves (scoring.md §2).
 */
import { performance } from 'node:perf_hooks'
import { findChromium } from './browser.js'
import { FairShare, type Grant } from './fair-share.js'
import type { RunReply } from './lighthouse-run.js'
import { startGuardedProxy, type GuardedProxy } from './proxy.js'
import { decideSandbox, sandboxFacts } from './sandbox.js'
import { Slot, type LabSlot, type SlotResult } from './slot.js'
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

/** The owner of a run that names none (a check outside any account): one share among the others. */
const NO_OWNER = ''

export class Lab {
  private closed = false
  private readonly share: FairShare<LabSlot>
  readonly timeoutMs: number
  /** Runs at once: one per slot. */
  readonly concurrency: number
  private readonly queuePerUser: number
  private readonly counts = { runs: 0, measured: 0, active: 0 }
  private readonly fallbacks: Record<LabFallbackReason, number> = {
    timeout: 0,
    crashed: 0,
    failed: 0,
    busy: 0,
  }

  /** `Lab.start` builds the real slots; tests give slots of their own (fake lab work). */
  constructor(
    private readonly slots: LabSlot[],
    private readonly proxy: Pick<GuardedProxy, 'refused' | 'close'>,
    opts: Omit<LabOptions, 'browser' | 'concurrency'>,
  ) {
    this.concurrency = slots.length
    this.timeoutMs = opts.timeoutMs ?? LAB_DEFAULTS.timeoutMs
    this.queuePerUser = Math.max(0, Math.floor(opts.queuePerUser ?? LAB_DEFAULTS.queuePerUser))
    this.share = new FairShare(slots, {
      perOwner: Math.max(1, Math.floor(opts.perUser ?? this.concurrency - 1)),
      queuePerOwner: this.queuePerUser,
      maxWaitMs: opts.queueWaitMs ?? this.timeoutMs + LAB_DEFAULTS.queueWaitMarginMs,
    })
  }

  /** Finds (for 'auto') and starts the browsers, so a wrong path stops `serve` at once. */
  static async start(opts: LabOptions): Promise<Lab> {
    const path = opts.browser === 'auto' ? findChromium() : opts.browser
    if (!path)
      throw new LabStartError(
        '--lab-browser auto found no Chromium or Chrome: install one (e.g. apt-get install chromium) or pass its path',
      )
    const log = opts.log ?? (() => {})
    const decided = decideSandbox(sandboxFacts(path))
    if (!decided.sandbox) log(`lab: Chromium runs without its sandbox: ${decided.why}`)
    const proxy = await startGuardedProxy({ allowPrivateTargets: opts.allowPrivateTargets === true })
    const spec = { path, proxyAddress: proxy.address, sandbox: decided.sandbox }
    const concurrency = Math.max(1, Math.floor(opts.concurrency ?? LAB_DEFAULTS.concurrency))
    const slots = Array.from({ length: concurrency }, () => new Slot(spec, proxy.credential, log))
    const lab = new Lab(slots, proxy, opts)
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
      queued: this.share.queued,
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

  /** Measures `url` for `owner`'s check; resolves with a measurement or a fallback, never rejects. */
  async measure(url: string, owner: string = NO_OWNER): Promise<LabOutcome> {
    const grant = await this.share.acquire(owner)
    const outcome = 'refused' in grant ? this.refusal(grant) : await this.runGranted(grant, url)
    this.counts.runs++
    if (outcome.method === 'lab') this.counts.measured++
    else this.fallbacks[outcome.fallback]++
    return outcome
  }

  async close(): Promise<void> {
    this.closed = true
    this.share.close()
    await Promise.all(this.slots.map((s) => s.close()))
    await this.proxy.close()
  }

  /** Kills slot `index`'s browser (tests: a crash mid-run); its next run starts a new one. */
  async killBrowser(index = 0): Promise<void> {
    this.slots[index]?.kill()
  }

  private async runGranted(
    grant: Extract<Grant<LabSlot>, { slot: LabSlot }>,
    url: string,
  ): Promise<LabOutcome> {
    this.counts.active++
    try {
      return await this.runOn(grant.slot, url, grant.waitedMs)
    } finally {
      grant.release()
      this.counts.active--
    }
  }

  private refusal(grant: Extract<Grant<LabSlot>, { refused: string }>): LabFallback {
    const wait = { durationMs: 0, queuedMs: grant.waitedMs }
    if (grant.refused === 'closed')
      return { method: 'estimate', fallback: 'failed', reason: 'the lab is closed', ...wait }
    const reason =
      grant.refused === 'queue_full'
        ? `this account already has ${this.queuePerUser} lab runs waiting for a browser`
        : `no lab browser was free within ${Math.round(grant.waitedMs / 1000)} s`
    return { method: 'estimate', fallback: 'busy', reason, ...wait }
  }

  private async runOn(slot: LabSlot, url: string, queuedMs: number): Promise<LabOutcome> {
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
