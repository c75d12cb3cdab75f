/**
 * Local fixtures for the monitor tests: a site whose behaviour the test switches between runs
 * (healthy, HTTP 500, a security header gone, connection refused), a webhook receiver that
 * records what it got and can fail its first N requests, and the monitor service wired for tests.
 */
import { once } from 'node:events'
import http from 'node:http'
import https from 'node:https'
import type net from 'node:net'
import { gzipSync } from 'node:zlib'
import type { Delivery, WebhookPayload } from '../../src/contract/monitors.js'
import { CheckCapacity } from '../../src/capacity/index.js'
import { MonitorService, secretBox, type Deliverer } from '../../src/monitors/index.js'
import type { ChannelRecord } from '../../src/store/monitors.js'
import type { Store } from '../../src/store/types.js'
import type { TestCert } from '../fixtures/certs.js'
import { SECURITY_HEADERS } from '../fixtures/targets.js'

const HOST = '127.0.0.1'
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Monitored site</title></head><body><h1>Monitored</h1>${Array.from(
  { length: 30 },
  (_, i) => `<p>Paragraph ${i + 1} of a local site that a sitehealth monitor watches.</p>`,
).join('')}</body></html>`
const PAGE_GZ = gzipSync(PAGE)

export type SiteMode = 'ok' | 'error' | 'no-frame-options' | 'no-headers'

export interface FlappySite {
  url: (path?: string) => string
  mode: SiteMode
  /** GET requests per path. */
  hits: Map<string, number>
  /** Stop listening (connection refused) / listen again on the same port. */
  refuse(): Promise<void>
  accept(): Promise<void>
  close(): Promise<void>
}

export async function startFlappySite(cert: TestCert): Promise<FlappySite> {
  const sockets = new Set<net.Socket>()
  const site: FlappySite = {
    mode: 'ok',
    hits: new Map(),
    url: (path = '/') => `https://${HOST}:${port}${path}`,
    async refuse() {
      await new Promise<void>((r) => {
        server.close(() => r())
        for (const s of sockets) s.destroy()
      })
    },
    async accept() {
      server.listen(port, HOST)
      await once(server, 'listening')
    },
    async close() {
      if (server.listening) await site.refuse()
    },
  }
  const server = https.createServer(cert, (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (req.method === 'GET') site.hits.set(path, (site.hits.get(path) ?? 0) + 1)
    if (site.mode === 'error') {
      res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' })
      return res.end('<!doctype html><title>Error</title><p>Boom.</p>')
    }
    let headers: Record<string, string> = { ...SECURITY_HEADERS }
    if (site.mode === 'no-frame-options') {
      const { 'x-frame-options': _x, ...rest } = headers
      headers = rest
    }
    if (site.mode === 'no-headers' || path === '/bare') headers = {}
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'max-age=60',
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    })
    res.end(gzip ? PAGE_GZ : PAGE)
  })
  server.on('connection', (s: net.Socket) => {
    sockets.add(s)
    s.once('close', () => sockets.delete(s))
  })
  server.on('tlsClientError', () => {})
  server.listen(0, HOST)
  await once(server, 'listening')
  const port = (server.address() as net.AddressInfo).port
  return site
}

export interface ReceivedHook {
  path: string
  headers: http.IncomingHttpHeaders
  body: string
  status: number
}

export interface Receiver {
  url: (path: string) => string
  received: ReceivedHook[]
  /** Fail the next N requests to a path with HTTP 500. */
  failNext: Map<string, number>
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedHook[] = []
  const failNext = new Map<string, number>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = req.url ?? '/'
      const left = failNext.get(path) ?? 0
      const status = left > 0 ? 500 : 200
      if (left > 0) failNext.set(path, left - 1)
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status })
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'fail')
    })
  })
  server.listen(0, HOST)
  await once(server, 'listening')
  const port = (server.address() as net.AddressInfo).port
  return {
    url: (path) => `http://${HOST}:${port}${path}`,
    received,
    failNext,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

/**
 * Polls until `fn` returns a truthy value or `ms` pass, every `everyMs` (keep polls that call the
 * API under its 120-a-minute limit per key).
 */
export async function waitFor<T>(
  fn: () => Promise<T> | T,
  ms: number,
  what: string,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms
  let last: T | undefined
  for (;;) {
    last = await fn()
    if (last) return last as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

/**
 * A deliverer for monitor-service tests: records every alert it is asked to send (and to which
 * channel) and reports each delivered at the first attempt, with no network.
 */
export class RecordingDeliverer {
  readonly deliveries: Array<{ channel: ChannelRecord; payload: WebhookPayload }> = []
  /** The payloads sent, in order. */
  get sent(): WebhookPayload[] {
    return this.deliveries.map((d) => d.payload)
  }
  async deliver(
    channel: ChannelRecord,
    payload: WebhookPayload,
    start: Delivery,
    record: (d: Delivery) => Promise<void>,
  ): Promise<Delivery> {
    this.deliveries.push({ channel, payload })
    const done: Delivery = {
      ...start,
      status: 'delivered',
      attempts: 1,
      last_attempt_at: payload.occurred_at,
    }
    await record(done)
    return done
  }
  maxDurationMs(): number {
    return 1_000
  }
  /** As the service takes it. */
  asDeliverer(): Deliverer {
    return this as unknown as Deliverer
  }
}

/**
 * The monitor service on `store` as its tests build it: alerts go to `recorder`, private targets
 * are refused, a check times out after 5 s, two run at once; `over` changes any of it (a fake
 * check, a clock, private targets for a loopback site…).
 */
export function monitorService(
  store: Store,
  recorder: RecordingDeliverer,
  over: Partial<ConstructorParameters<typeof MonitorService>[0]> = {},
): MonitorService {
  return new MonitorService({
    store,
    monitors: store.monitors,
    deliverer: recorder.asDeliverer(),
    secrets: secretBox('monitor service test key material'),
    allowPrivateTargets: false,
    checkTimeoutMs: 5_000,
    capacity: new CheckCapacity({ maxConcurrent: 2, maxPerUser: 2 }),
    ...over,
  })
}
