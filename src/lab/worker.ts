/**
 * A lab slot's worker thread: Lighthouse loaded once (warm), connected to the slot's own Chromium.
 * A thread per slot because Lighthouse keeps process-wide state (its performance marks, cleared at
 * the end of every run) that two overlapping runs in one thread break, and so that two runs use the
 * machine's two cores. Messages: `{ ready: true }` once loaded; then `{ id, url, link?, proxy }`
 * runs and the reply is `{ id, ...RunReply }`. `link` (with the first run for each browser) is a
 * MessagePort relayed to the browser's DevTools pipe by the slot (src/lab/browser.ts).
 */
import { parentPort, type MessagePort } from 'node:worker_threads'
import puppeteer, { type Browser, type ConnectionTransport } from 'puppeteer-core'
import { runLighthouse, type RunReply } from './lighthouse-run.js'
import type { ProxyCredential } from './proxy.js'

export interface RunRequest {
  id: number
  url: string
  /** The slot's browser, when it is new to this worker (a first run, or a restarted browser). */
  link?: MessagePort
  /** The lab proxy's credential, for the page to answer its challenge. */
  proxy: ProxyCredential
}

let connected: Browser | null = null

/** puppeteer over the relayed pipe: one CDP message a port message. */
async function connectOver(link: MessagePort): Promise<Browser> {
  const old = connected
  connected = null
  await old?.disconnect().catch(() => {})
  const transport: ConnectionTransport = {
    send: (message) => link.postMessage(message),
    close: () => link.close(),
  }
  link.on('message', (message: string) => transport.onmessage?.(message))
  link.on('close', () => transport.onclose?.())
  connected = await puppeteer.connect({ transport, defaultViewport: null, protocolTimeout: 60_000 })
  return connected
}

async function handle(req: RunRequest): Promise<RunReply> {
  try {
    const browser = req.link ? await connectOver(req.link) : connected
    if (!browser?.connected) return { ok: false, error: 'the lab worker has no browser' }
    return await runLighthouse(browser, req.url, req.proxy)
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
