/**
 * One lab slot: a warm Chromium of its own (Lighthouse's trace is browser-wide, so two runs never
 * share a browser) and a worker thread that runs Lighthouse in it. A slot runs one page at a time.
 * A browser that died is started again before the next run; a worker that died or was stopped
 * (timeout) is too. Never rejects a run: it answers with the reply or why there is none.
 */
import { Worker } from 'node:worker_threads'
import { launchBrowser, type LaunchSpec, type WarmBrowser } from './browser.js'
import type { RunReply } from './lighthouse-run.js'
import type { ProxyCredential } from './proxy.js'
import type { RunRequest } from './worker.js'

/** How long a run may take to report after its browser died, before its worker is stopped. */
const CRASH_GRACE_MS = 10_000

export type SlotResult =
  RunReply | { ok: false; timeout: true } | { ok: false; crashed: true; error?: string }

/** What the lab needs of a slot (the Slot below; tests give fake ones). */
export interface LabSlot {
  readonly browserPid: number | null
  readonly restarts: number
  warmUp(): Promise<void>
  run(url: string, timeoutMs: number): Promise<SlotResult>
  kill(): void
  close(): Promise<void>
}

/**
 * The worker's compiled file: next to this module when running from dist/, and dist/lab/worker.js
 * when the TypeScript sources run directly (the tests; test/global-setup.ts keeps dist/ current).
 */
function workerFile(): URL {
  const here = import.meta.url
  return here.endsWith('.ts') ? new URL('../../dist/lab/worker.js', here) : new URL('./worker.js', here)
}

export class Slot implements LabSlot {
  private warm: WarmBrowser | null = null
  private launching: Promise<WarmBrowser> | null = null
  private worker: Worker | null = null
  /** The worker holding a link to the current browser's pipe, and that browser. */
  private linked: { worker: Worker; warm: WarmBrowser } | null = null
  private nextId = 1
  private pending = new Map<number, (reply: RunReply) => void>()
  /** Browsers started after the first (the first one dies or is replaced). */
  restarts = 0
  private started = false

  constructor(
    private readonly spec: LaunchSpec,
    private readonly proxy: ProxyCredential,
    private readonly log: (line: string) => void,
  ) {}

  /** Chromium's main process id while it runs. */
  get browserPid(): number | null {
    return this.warm?.alive() ? this.warm.pid : null
  }

  /** Starts the browser and the worker, and waits for Lighthouse to load in it (a broken install fails here). */
  async warmUp(): Promise<void> {
    const worker = this.workerThread()
    const loaded = new Promise<void>((resolve, reject) => {
      const onMessage = (msg: { ready?: boolean }) => {
        if (!msg.ready) return
        worker.off('message', onMessage)
        resolve()
      }
      worker.on('message', onMessage)
      worker.once('error', reject)
      worker.once('exit', () => reject(new Error('the lab worker stopped while loading Lighthouse')))
    })
    await Promise.all([loaded, this.browser()])
  }

  async run(url: string, timeoutMs: number): Promise<SlotResult> {
    const warm = await this.browser()
    const worker = this.workerThread()
    const id = this.nextId++
    const reply = new Promise<RunReply>((resolve) => this.pending.set(id, resolve))
    let timer: NodeJS.Timeout | undefined
    let onExit: (() => void) | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs)
    })
    const died = new Promise<'died'>((resolve) => {
      onExit = () => resolve('died')
      warm.onExit(onExit)
    })
    // the worker gets a link to the browser's pipe once per browser (a new one after a restart)
    const link = this.linked?.worker === worker && this.linked.warm === warm ? undefined : warm.connect()
    this.linked = { worker, warm }
    worker.postMessage({ id, url, link, proxy: this.proxy } satisfies RunRequest, link ? [link] : [])
    try {
      const first = await Promise.race([reply, timedOut, died])
      if (first === 'timeout') {
        // the run and its trace may be stuck anywhere: a new worker and a new browser for the next run
        this.stopWorker(worker)
        await this.replaceBrowser('a timed-out run')
        return { ok: false, timeout: true }
      }
      // a failed run may be the first news of a killed browser: give its exit a moment to show
      if (first !== 'died' && !first.ok) await Promise.race([died, delay(500)])
      if (first === 'died' || !warm.alive()) {
        const late = await Promise.race([reply, delay(CRASH_GRACE_MS)])
        if (!late) this.stopWorker(worker)
        return { ok: false, crashed: true, error: late && !late.ok ? late.error : undefined }
      }
      return first
    } finally {
      clearTimeout(timer)
      this.pending.delete(id)
      if (onExit) warm.offExit(onExit)
    }
  }

  /** Kills the browser (tests: a crash mid-run); the next run starts a new one. */
  kill(): void {
    if (this.warm?.alive()) process.kill(this.warm.pid, 'SIGKILL')
  }

  async close(): Promise<void> {
    const worker = this.worker
    this.worker = null
    if (worker) await worker.terminate().catch(() => 0)
    const warm = this.warm ?? (await this.launching?.catch(() => null))
    this.warm = null
    await warm?.close()
  }

  private workerThread(): Worker {
    if (this.worker) return this.worker
    const worker = new Worker(workerFile())
    worker.on('message', (msg: { id?: number } & RunReply) => {
      const { id, ...reply } = msg
      if (id === undefined) return
      this.pending.get(id)?.(reply as RunReply)
    })
    const gone = (why: string) => {
      if (this.worker === worker) {
        // its link to the browser's pipe went with it: the next run starts both anew
        this.worker = null
        void this.replaceBrowser('its worker stopped')
      }
      for (const resolve of this.pending.values()) resolve({ ok: false, error: why })
      this.pending.clear()
    }
    worker.on('error', (err) => gone(`the lab worker failed (${err.message.split('\n')[0]})`))
    worker.on('exit', () => gone('the lab worker stopped'))
    this.worker = worker
    return worker
  }

  private stopWorker(worker: Worker): void {
    if (this.worker === worker) this.worker = null
    void worker.terminate().catch(() => 0)
  }

  private async replaceBrowser(why: string): Promise<void> {
    const old = this.warm
    this.warm = null
    if (old) {
      this.log(`lab: replacing the browser after ${why}`)
      await old.close().catch(() => {})
    }
  }

  private async browser(): Promise<WarmBrowser> {
    if (this.warm?.alive()) return this.warm
    if (this.warm) {
      const dead = this.warm
      this.warm = null
      this.log('lab: the browser died; starting a new one')
      await dead.close().catch(() => {})
    }
    this.launching ??= launchBrowser(this.spec).finally(() => {
      this.launching = null
    })
    const warm = await this.launching
    if (this.started) this.restarts++
    this.started = true
    this.warm = warm
    return warm
  }
}

function delay(ms: number): Promise<null> {
  return new Promise((resolve) => setTimeout(() => resolve(null), ms).unref())
}
