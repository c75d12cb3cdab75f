/**
 * The lab browser's only way out: a forward proxy on loopback that applies the check's SSRF guard
 * (src/checks/guard.ts) to EVERY request Chromium makes — the page, each redirect hop, and every
 * subresource, fetch, WebSocket and beacon — at connect time, with the same guarded DNS lookup
 * the probe uses (so DNS rebinding cannot pass either).
 *
 * Chromium is started with `--proxy-server` pointing here and `--proxy-bypass-list=<-loopback>`
 * (without it, Chromium would go to localhost directly), and with WebRTC restricted to proxied
 * connections. What the guard allows the probe to reach, the browser may load; anything else
 * (a private, loopback, link-local or metadata address, a `localhost` name) is refused with 403
 * (plain http) or a refused tunnel (https), which the page sees as a network error. Public
 * third-party hosts stay reachable: a page's CDN and fonts are part of what its visitors load.
 * `--allow-private-targets` lifts the guard here exactly as it does for checks.
 *
 * Only the lab's own browser may use it: every request and tunnel must carry the proxy's
 * credential (Proxy-Authorization Basic, a random user and password made when the proxy starts,
 * never written anywhere); without it the answer is 407. Chromium takes no proxy credential on its
 * command line, so the lab's worker answers the browser's proxy challenge through CDP
 * (puppeteer's page.authenticate, src/lab/lighthouse-run.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { assertTargetAllowed, createGuardedLookup } from '../checks/guard.js'

/** The proxy's credential, for the browser's answer to its 407 challenge. */
export interface ProxyCredential {
  username: string
  password: string
}

export interface GuardedProxy {
  /** `127.0.0.1:PORT`, for Chromium's --proxy-server. */
  readonly address: string
  /** What a request must carry (Proxy-Authorization Basic); made anew for each proxy. */
  readonly credential: ProxyCredential
  /** Requests refused so far (for logs and tests). */
  readonly refused: string[]
  close(): Promise<void>
}

const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]

export async function startGuardedProxy(opts: { allowPrivateTargets: boolean }): Promise<GuardedProxy> {
  const lookup = createGuardedLookup({ allowPrivateTargets: opts.allowPrivateTargets })
  const refused: string[] = []
  const allowed = (url: URL): boolean => {
    try {
      assertTargetAllowed(url, { allowPrivateTargets: opts.allowPrivateTargets })
      return true
    } catch {
      refuse(url.host)
      return false
    }
  }
  const refuse = (what: string) => {
    if (refused.length < 100) refused.push(what)
  }
  const sockets = new Set<Socket>()
  const credential: ProxyCredential = {
    username: `lab-${randomBytes(6).toString('hex')}`,
    password: randomBytes(24).toString('base64url'),
  }
  const authorized = isAuthorized(credential)

  const server: Server = createServer((req, res) => {
    if (!authorized(req)) {
      res.writeHead(407, { 'proxy-authenticate': CHALLENGE, 'content-type': 'text/plain' }).end()
      return
    }
    let url: URL
    try {
      url = new URL(req.url ?? '')
    } catch {
      res.writeHead(400).end()
      return
    }
    if (url.protocol !== 'http:' || !allowed(url)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Blocked by the lab guard')
      return
    }
    forward(lookup, req, url, (status, headers, body) => {
      if (status === 0) {
        refuse(url.host)
        res.writeHead(502, { 'content-type': 'text/plain' }).end('Blocked or unreachable')
        return
      }
      res.writeHead(status, headers)
      body?.pipe(res)
    })
  })

  // https (and wss): a CONNECT tunnel, opened only to an allowed host through the guarded lookup
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client)
    client.on('close', () => sockets.delete(client))
    client.on('error', () => client.destroy())
    if (!authorized(req)) {
      client.end(
        `HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: ${CHALLENGE}\r\nContent-Length: 0\r\n\r\n`,
      )
      return
    }
    let target: URL
    try {
      target = new URL(`https://${req.url ?? ''}`)
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n')
      return
    }
    if (!allowed(target)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n')
      return
    }
    const upstream = connect({
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: Number(target.port || 443),
      lookup,
    })
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => {
      refuse(target.host)
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')
      client.destroy()
    })
  })
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    address: `127.0.0.1:${port}`,
    credential,
    refused,
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

const CHALLENGE = 'Basic realm="sitehealth lab"'

/** True for a request that carries the credential (compared in constant time). */
function isAuthorized(credential: ProxyCredential): (req: IncomingMessage) => boolean {
  const expected = Buffer.from(
    `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`,
  )
  return (req) => {
    const given = Buffer.from(req.headers['proxy-authorization'] ?? '')
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
}

/** Sends a plain-http request on through the guarded lookup; status 0 when it could not. */
function forward(
  lookup: ReturnType<typeof createGuardedLookup>,
  req: IncomingMessage,
  url: URL,
  done: (status: number, headers?: Record<string, string | string[]>, body?: IncomingMessage) => void,
) {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.includes(name)) headers[name] = value
  const upstream = httpRequest(
    {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || 80,
      path: `${url.pathname}${url.search}`,
      method: req.method,
      headers,
      lookup,
    },
    (up) => {
      const out: Record<string, string | string[]> = {}
      for (const [name, value] of Object.entries(up.headers))
        if (value !== undefined && !HOP_BY_HOP.includes(name)) out[name] = value
      done(up.statusCode ?? 502, out, up)
    },
  )
  upstream.on('error', () => done(0))
  req.pipe(upstream)
}
