/**
 * A lab slot's worker thread: Lighthouse loaded once (warm), connected to the slot's own Chromium.
 * A thread per slot because Lighthouse keeps process-wide state (its performance marks, cleared at
 * the end of every run) that two overlapping runs in one thread break, and so that two runs use the
 * machine's two cores. Messages: `{ ready: true }` once loaded; then `{ id, url, browserURL }` runs and the reply is
 * `{ id, ...RunReply }`.
 */
import { parentPort } from 'node:worker_threads'
import puppeteer, { type Browser } from 'puppeteer-core'
import { runLighthouse, type RunReply } from './lighthouse-run.js'

export interface RunRequest {
  id: number
  url: string
  /** The slot's Chromium (http://127.0.0.1:PORT); a new one after a restart. */
  browserURL: string
}

let connected: { url: string; browser: Browser } | null = null

async function browserAt(url: string): Promise<Browser> {
  if (connected?.url === url && connected.browser.connected) return connected.browser
  const old = connected
  connected = null
  await old?.browser.disconnect().catch(() => {})
  const browser = await puppeteer.connect({ browserURL: url, defaultViewport: null, protocolTimeout: 60_000 })
  connected = { url, browser }
  return browser
}

async function handle(req: RunRequest): Promise<RunReply> {
  try {
    return await runLighthouse(await browserAt(req.browserURL), req.url)
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err)
    return { ok: false, error: (text.split('\n')[0] ?? '').slice(0, 160) }
  }
}

parentPort?.on('message', (req: RunRequest) => {
  void handle(req).then((reply) => parentPort?.postMessage({ id: req.id, ...reply }))
})
// Lighthouse and puppeteer are loaded (static imports run first): the slot is warm
parentPort?.postMessage({ ready: true })
