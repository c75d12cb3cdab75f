/**
 * The Streamable HTTP transport, bound to 127.0.0.1 only.
 *
 * - `GET /health` needs no key: `{ok: true, service: 'sitehealth-mcp'}`.
 * - `/mcp` (POST, GET, DELETE) needs `Authorization: Bearer <sitehealth API key>`. The key is
 *   checked against the API (a credits call through SitehealthClient, verdict cached briefly) and
 *   is the key of that session's own client: each session gets its own McpServer and client, and
 *   a session only accepts requests carrying the key it was opened with, so keys never mix.
 * - Sessions are stateful (`Mcp-Session-Id`, a random UUID), held in memory (./session-pool.ts), closed by DELETE,
 *   after 30 idle minutes, or at shutdown. A session that never gets past `initialize` (no
 *   second request within `handshakeMs`, 30 s) is closed. Each key may hold `maxSessionsPerKey`
 *   sessions (20): opening one more closes that key's least recently used idle session, or, when
 *   all of them are busy, answers 429 to that key alone. The global cap (`maxSessions`, 1000)
 *   stays as the last resort (503), so one key can no longer lock everyone else out.
 * - Every request's Host must be 127.0.0.1:PORT or localhost:PORT and a present Origin must be
 *   http(s)://127.0.0.1 or http(s)://localhost (any port), else 403: protection against DNS
 *   rebinding, as the MCP specification asks of local servers.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { SitehealthClient } from '../client/client.js'
import { isWellFormedApiKey } from '../contract/index.js'
import { KeyVerdicts } from './key-verdicts.js'
import { SessionPool } from './session-pool.js'
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

/** What a request handler needs: the options, the live port, the key verdicts and the sessions. */
interface Ctx {
  opts: HttpServerOptions
  port: number
  verdicts: KeyVerdicts
  pool: SessionPool
}

export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const log = opts.log ?? (() => {})
  const pool = new SessionPool(
    {
      maxSessions: opts.maxSessions ?? MCP_SESSION_LIMITS.maxSessions,
      maxSessionsPerKey: opts.maxSessionsPerKey ?? MCP_SESSION_LIMITS.maxSessionsPerKey,
      handshakeMs: opts.handshakeMs ?? MCP_SESSION_LIMITS.handshakeMs,
      sessionIdleMs: opts.sessionIdleMs ?? 30 * 60_000,
    },
    log,
  )
  const ctx: Ctx = {
    opts,
    port: opts.port,
    verdicts: new KeyVerdicts(opts.apiUrl, opts.authCacheMs ?? 30_000),
    pool,
  }

  const httpServer: Server = createServer((req, res) => {
    handle(ctx, req, res).catch((err) => {
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
  const port = (httpServer.address() as AddressInfo).port
  ctx.port = port
  pool.startReaper()

  let closing: Promise<void> | undefined
  return {
    url: `http://${MCP_HTTP_HOST}:${port}${MCP_PATH}`,
    port,
    close: () =>
      (closing ??= (async () => {
        const done = new Promise<void>((r) => httpServer.close(() => r()))
        await pool.closeAll()
        httpServer.closeAllConnections()
        await done
      })()),
  }
}

async function handle(ctx: Ctx, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refusal = checkHostAndOrigin(req, ctx.port)
  if (refusal) return sendError(res, 403, 'forbidden', refusal)

  const path = new URL(req.url ?? '/', 'http://localhost').pathname
  if (path === HEALTH_PATH) {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendError(res, 405, 'method_not_allowed', 'Use GET.', { allow: 'GET, HEAD' })
    return sendJson(res, 200, { ok: true, service: MCP_SERVER_NAME, version: ctx.opts.version })
  }
  if (path !== MCP_PATH)
    return sendError(res, 404, 'not_found', `No route ${path}: the MCP endpoint is ${MCP_PATH}.`)
  if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE')
    return sendError(res, 405, 'method_not_allowed', `Use POST, GET or DELETE on ${MCP_PATH}.`, {
      allow: 'GET, POST, DELETE',
    })

  const key = await authenticate(ctx, req, res)
  if (!key) return
  const hash = createHash('sha256').update(key).digest()

  const sessionId = header(req.headers['mcp-session-id'])
  if (sessionId) {
    const session = ctx.pool.get(sessionId)
    if (!session) return sendRpcError(res, 404, -32001, 'Session not found')
    if (!timingSafeEqual(session.keyHash, hash))
      return sendError(res, 403, 'forbidden', 'This MCP session was opened with a different API key.')
    const body = req.method === 'POST' ? await readJson(req, res) : undefined
    if (body === INVALID) return
    session.initialized = true
    return ctx.pool.serve(session, req, res, body)
  }
  return openSession(ctx, key, hash, req, res)
}

/**
 * Every request, not only the one opening the session: the key, checked with the API. Answers the
 * refusal itself and returns undefined when the key is missing, malformed or refused.
 */
async function authenticate(
  ctx: Ctx,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<string | undefined> {
  const key = bearer(req)
  if (!key) return unauthorized(res, 'invalid_api_key', HTTP_NO_KEY_HINT, false)
  if (!isWellFormedApiKey(key))
    return unauthorized(res, 'invalid_api_key', 'The API key is malformed (its checksum does not match).')
  const verdict = await ctx.verdicts.verify(key, createHash('sha256').update(key).digest('hex'))
  if (verdict.ok) return key
  if (verdict.status === 401) return unauthorized(res, verdict.code, verdict.message)
  const headers: Record<string, string> =
    verdict.retryAfter !== undefined ? { 'retry-after': String(verdict.retryAfter) } : {}
  sendError(res, verdict.status, verdict.code, verdict.message, headers)
  return undefined
}

/** No session yet: only an initialize request may open one, within the key's and the server's caps. */
async function openSession(
  ctx: Ctx,
  key: string,
  hash: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== 'POST')
    return sendRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required')
  const body = await readJson(req, res)
  if (body === INVALID) return
  if (!isInitializeRequest(body))
    return sendRpcError(res, 400, -32000, 'Bad Request: No valid session ID provided (send initialize first)')
  // this key's own quota first: make room among its own idle sessions, else refuse this key only
  if (!ctx.pool.makeRoomFor(hash))
    return sendError(
      res,
      429,
      'too_many_sessions',
      `This API key already has ${ctx.pool.limits.maxSessionsPerKey} MCP sessions in use: end one with DELETE /mcp.`,
      { 'retry-after': '30' },
    )
  if (ctx.pool.size >= ctx.pool.limits.maxSessions)
    return sendError(
      res,
      503,
      'too_many_sessions',
      'Too many open MCP sessions on this server; try again later.',
      {
        'retry-after': '60',
      },
    )

  const client = new SitehealthClient({ baseUrl: ctx.opts.apiUrl, apiKey: key })
  const server = createMcpServer(ctx.opts.version, () => client, { noKeyHint: HTTP_NO_KEY_HINT })
  await ctx.pool.open(server, hash, req, res, body)
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
function unauthorized(res: ServerResponse, code: string, message: string, keySent = true): undefined {
  const challenge = `Bearer realm="${MCP_SERVER_NAME}"` + (keySent ? ', error="invalid_token"' : '')
  sendError(res, 401, code, message, { 'www-authenticate': challenge })
  return undefined
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
