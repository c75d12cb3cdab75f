/**
 * The Streamable HTTP transport, bound to 127.0.0.1 only.
 *
 * - `GET /health` needs no key: `{ok: true, service: 'sitehealth-mcp'}`.
 * - `/mcp` (POST, GET, DELETE) needs `Authorization: Bearer <sitehealth API key>`. The key is
 *   checked against the API (a credits call through SitehealthClient, verdict cached briefly) and
 *   is the key of that session's own client: each session gets its own McpServer and client, and
 *   a session only accepts requests carrying the key it was opened with, so keys never mix.
 * - Sessions are stateful (`Mcp-Session-Id`, a random UUID), held in memory, closed by DELETE,
 *   after 30 idle minutes, or at shutdown. A session that never gets past `initialize` (no
 *   second request within `handshakeMs`, 30 s) is closed. Each key may hold `maxSessionsPerKey`
 *   sessions (20): opening one more closes that key's least recently used idle session, or, when
 *   all of them are busy, answers 429 to that key alone. The global cap (`maxSessions`, 1000)
 *   stays as the last resort (503), so one key can no longer lock everyone else out.
 * - Every request's Host must be 127.0.0.1:PORT or localhost:PORT and a present Origin must be
 *   http(s)://127.0.0.1 or http(s)://localhost (any port), else 403: protection against DNS
 *   rebinding, as the MCP specification asks of local servers.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { ApiError, SitehealthClient } from '../client/client.js'
import { isWellFormedApiKey } from '../contract/index.js'
import { createMcpServer, MCP_SERVER_NAME } from './tools.js'

/** The only address this server binds: never 0.0.0.0. */
export const MCP_HTTP_HOST = '127.0.0.1'
export const MCP_PATH = '/mcp'
export const HEALTH_PATH = '/health'

const MAX_BODY_BYTES = 1024 * 1024
export const MCP_SESSION_LIMITS = {
  maxSessions: 1000,
  maxSessionsPerKey: 20,
  /** A session must send its second request (`notifications/initialized`) within this, ms. */
  handshakeMs: 30_000,
} as const

export const HTTP_NO_KEY_HINT =
  'No API key: send the header Authorization: Bearer <your sitehealth API key> with every request to /mcp.'

export interface HttpServerOptions {
  apiUrl: string
  /** 0 picks a free port. */
  port: number
  version: string
  /** How long a key's verdict (valid or not) is reused, ms. */
  authCacheMs?: number
  /** Sessions without a request for this long are closed, ms. */
  sessionIdleMs?: number
  /** Sessions open at once, all keys together (the last resort: 503 past it). */
  maxSessions?: number
  /** Sessions one key may hold. */
  maxSessionsPerKey?: number
  /** How long a new session may stay at `initialize` alone, ms. */
  handshakeMs?: number
  log?: (line: string) => void
}

export interface RunningHttpServer {
  /** The MCP endpoint: http://127.0.0.1:PORT/mcp */
  url: string
  port: number
  close: () => Promise<void>
}

interface Session {
  transport: StreamableHTTPServerTransport
  server: McpServer
  keyHash: Buffer
  lastSeen: number
  active: number
  /** Past the handshake: a request after `initialize` arrived. */
  initialized: boolean
}

type Verdict =
  | { ok: true }
  | { ok: false; status: number; code: string; message: string; retryAfter?: number; cache: boolean }

export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const log = opts.log ?? (() => {})
  const authCacheMs = opts.authCacheMs ?? 30_000
  const sessionIdleMs = opts.sessionIdleMs ?? 30 * 60_000
  const maxSessions = opts.maxSessions ?? MCP_SESSION_LIMITS.maxSessions
  const maxSessionsPerKey = opts.maxSessionsPerKey ?? MCP_SESSION_LIMITS.maxSessionsPerKey
  const handshakeMs = opts.handshakeMs ?? MCP_SESSION_LIMITS.handshakeMs
  const sessions = new Map<string, Session>()
  const verdicts = new Map<string, { until: number; verdict: Promise<Verdict> }>()
  let port = opts.port

  /** Asks the API whether the key is good; concurrent and repeated asks share one answer. */
  function verifyKey(key: string, hash: string): Promise<Verdict> {
    const now = Date.now()
    const cached = verdicts.get(hash)
    if (cached && cached.until > now) return cached.verdict
    const verdict = new SitehealthClient({ baseUrl: opts.apiUrl, apiKey: key, timeoutMs: 15_000 })
      .credits()
      .then(
        (): Verdict => ({ ok: true }),
        (err): Verdict => {
          if (err instanceof ApiError && err.status === 401)
            return { ok: false, status: 401, code: err.code, message: err.message, cache: true }
          if (err instanceof ApiError && err.status === 429)
            return {
              ok: false,
              status: 429,
              code: err.code,
              message: err.message,
              retryAfter: err.retryAfter,
              cache: false,
            }
          const reason = err instanceof Error ? err.message : String(err)
          return {
            ok: false,
            status: 502,
            code: 'api_unavailable',
            message: `Cannot verify the API key with the sitehealth API at ${opts.apiUrl}: ${reason}`,
            cache: false,
          }
        },
      )
    verdicts.set(hash, { until: now + authCacheMs, verdict })
    void verdict.then((v) => {
      if (!v.ok && !v.cache) verdicts.delete(hash)
    })
    // Bound the cache: drop expired entries now and then.
    if (verdicts.size > 1000) for (const [h, v] of verdicts) if (v.until <= now) verdicts.delete(h)
    return verdict
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = checkHostAndOrigin(req, port)
    if (refusal) return sendError(res, 403, 'forbidden', refusal)

    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (path === HEALTH_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return sendError(res, 405, 'method_not_allowed', 'Use GET.', { allow: 'GET, HEAD' })
      return sendJson(res, 200, { ok: true, service: MCP_SERVER_NAME, version: opts.version })
    }
    if (path !== MCP_PATH)
      return sendError(res, 404, 'not_found', `No route ${path}: the MCP endpoint is ${MCP_PATH}.`)
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE')
      return sendError(res, 405, 'method_not_allowed', `Use POST, GET or DELETE on ${MCP_PATH}.`, {
        allow: 'GET, POST, DELETE',
      })

    // Authentication: every request, not only the one opening the session.
    const key = bearer(req)
    if (!key) return unauthorized(res, 'invalid_api_key', HTTP_NO_KEY_HINT, false)
    if (!isWellFormedApiKey(key))
      return unauthorized(res, 'invalid_api_key', 'The API key is malformed (its checksum does not match).')
    const hash = createHash('sha256').update(key).digest()
    const verdict = await verifyKey(key, hash.toString('hex'))
    if (!verdict.ok) {
      if (verdict.status === 401) return unauthorized(res, verdict.code, verdict.message)
      const headers: Record<string, string> =
        verdict.retryAfter !== undefined ? { 'retry-after': String(verdict.retryAfter) } : {}
      return sendError(res, verdict.status, verdict.code, verdict.message, headers)
    }

    const sessionId = header(req.headers['mcp-session-id'])
    if (sessionId) {
      const session = sessions.get(sessionId)
      if (!session) return sendRpcError(res, 404, -32001, 'Session not found')
      if (!timingSafeEqual(session.keyHash, hash))
        return sendError(res, 403, 'forbidden', 'This MCP session was opened with a different API key.')
      const body = req.method === 'POST' ? await readJson(req, res) : undefined
      if (body === INVALID) return
      session.initialized = true
      return serve(session, req, res, body)
    }

    // No session yet: only an initialize request may open one.
    if (req.method !== 'POST')
      return sendRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required')
    const body = await readJson(req, res)
    if (body === INVALID) return
    if (!isInitializeRequest(body))
      return sendRpcError(
        res,
        400,
        -32000,
        'Bad Request: No valid session ID provided (send initialize first)',
      )
    // this key's own quota first: make room among its own idle sessions, else refuse this key only
    if (!makeRoomFor(hash))
      return sendError(
        res,
        429,
        'too_many_sessions',
        `This API key already has ${maxSessionsPerKey} MCP sessions in use: end one with DELETE /mcp.`,
        { 'retry-after': '30' },
      )
    if (sessions.size >= maxSessions)
      return sendError(
        res,
        503,
        'too_many_sessions',
        'Too many open MCP sessions on this server; try again later.',
        {
          'retry-after': '60',
        },
      )

    const client = new SitehealthClient({ baseUrl: opts.apiUrl, apiKey: key })
    const server = createMcpServer(opts.version, () => client, { noKeyHint: HTTP_NO_KEY_HINT })
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        // opens that raced past the check above are evened out here
        makeRoomFor(hash)
        sessions.set(id, session)
        log(`session ${id} opened`)
        // a client that sends `initialize` and nothing else holds a session for nothing
        setTimeout(() => {
          if (!session.initialized && sessions.get(id) === session) {
            log(`session ${id} closed: no request after initialize within ${handshakeMs} ms`)
            void closeSession(id, session)
          }
        }, handshakeMs).unref()
      },
    })
    const session: Session = {
      transport,
      server,
      keyHash: hash,
      lastSeen: Date.now(),
      active: 0,
      initialized: false,
    }
    transport.onclose = () => {
      const id = transport.sessionId
      if (id && sessions.get(id) === session) {
        sessions.delete(id)
        log(`session ${id} closed`)
      }
    }
    await server.connect(transport)
    await serve(session, req, res, body)
    // The transport refused the initialize request (e.g. a wrong Accept header): drop it.
    if (!transport.sessionId || !sessions.has(transport.sessionId)) await server.close().catch(() => {})
  }

  /**
   * Closes the key's least recently used idle sessions until it holds fewer than its quota; false
   * when that is impossible because its sessions are busy.
   */
  function makeRoomFor(keyHash: Buffer): boolean {
    const own = [...sessions].filter(([, s]) => timingSafeEqual(s.keyHash, keyHash))
    const excess = own.length - maxSessionsPerKey + 1
    if (excess <= 0) return true
    const idle = own.filter(([, s]) => s.active === 0).sort((a, b) => a[1].lastSeen - b[1].lastSeen)
    if (idle.length < excess) return false
    for (const [id, s] of idle.slice(0, excess)) {
      log(`session ${id} closed: its key opened a newer one past the per-key limit`)
      void closeSession(id, s)
    }
    return true
  }

  async function serve(session: Session, req: IncomingMessage, res: ServerResponse, body: unknown) {
    session.active++
    session.lastSeen = Date.now()
    res.once('close', () => {
      session.active--
      session.lastSeen = Date.now()
    })
    await session.transport.handleRequest(req, res, body)
  }

  const httpServer: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      log(`error on ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`)
      if (!res.headersSent) sendError(res, 500, 'internal_error', 'Internal error; please try again.')
      else res.end()
    })
  })

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject)
    httpServer.listen(opts.port, MCP_HTTP_HOST, () => {
      httpServer.off('error', reject)
      resolve()
    })
  })
  port = (httpServer.address() as AddressInfo).port

  const reaper = setInterval(
    () => {
      const cutoff = Date.now() - sessionIdleMs
      for (const [id, s] of sessions)
        if (s.active === 0 && s.lastSeen < cutoff) {
          log(`session ${id} idle; closing`)
          void closeSession(id, s)
        }
    },
    Math.min(60_000, sessionIdleMs),
  )
  reaper.unref()

  async function closeSession(id: string, s: Session) {
    sessions.delete(id)
    await s.server.close().catch(() => {})
  }

  let closing: Promise<void> | undefined
  return {
    url: `http://${MCP_HTTP_HOST}:${port}${MCP_PATH}`,
    port,
    close: () =>
      (closing ??= (async () => {
        clearInterval(reaper)
        const done = new Promise<void>((r) => httpServer.close(() => r()))
        await Promise.all([...sessions].map(([id, s]) => closeSession(id, s)))
        httpServer.closeAllConnections()
        await done
      })()),
  }
}

/** Why a request must be refused for DNS-rebinding protection, or undefined when it is fine. */
export function checkHostAndOrigin(req: IncomingMessage, port: number): string | undefined {
  const host = (req.headers.host ?? '').toLowerCase()
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
    return `Host ${JSON.stringify(req.headers.host ?? '')} is not allowed: use 127.0.0.1:${port} or localhost:${port}.`
  const origin = req.headers.origin
  if (origin === undefined) return undefined
  let parsed: URL | undefined
  try {
    parsed = new URL(origin)
  } catch {
    parsed = undefined
  }
  const okOrigin =
    parsed !== undefined &&
    (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
    (parsed.hostname === '127.0.0.1' || parsed.hostname === 'localhost')
  return okOrigin
    ? undefined
    : `Origin ${JSON.stringify(origin)} is not allowed: only local pages may call this server.`
}

function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '')
  return m?.[1]
}

const INVALID = Symbol('invalid body')

/** Reads and parses a JSON body (at most 1 MiB), answering the error itself when it cannot. */
async function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) {
      sendRpcError(res, 413, -32000, `Request body over ${MAX_BODY_BYTES} bytes`, { connection: 'close' })
      return INVALID
    }
    chunks.push(chunk)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    sendRpcError(res, 400, -32700, 'Parse error: the body is not JSON')
    return INVALID
  }
}

/** 401 with a Bearer challenge; `error="invalid_token"` only when a key was sent (RFC 6750 §3). */
function unauthorized(res: ServerResponse, code: string, message: string, keySent = true) {
  const challenge = `Bearer realm="${MCP_SERVER_NAME}"` + (keySent ? ', error="invalid_token"' : '')
  sendError(res, 401, code, message, { 'www-authenticate': challenge })
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(text)
}

/** The API's error envelope, for HTTP-level refusals (401, 403, 404, 405, 502). */
function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
) {
  sendJson(res, status, { ok: false, error: { code, message } }, headers)
}

/** A JSON-RPC error, where the MCP transport itself would answer one. */
function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
) {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers)
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v
}
