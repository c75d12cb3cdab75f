/**
 * The MCP sessions of the HTTP transport (./http.ts), held in memory: each one its own McpServer,
 * transport and key. A session is closed by DELETE, after `sessionIdleMs` without a request, when
 * it never gets past `initialize` within `handshakeMs`, when its key opens one past
 * `maxSessionsPerKey` (its least recently used idle session goes), or at shutdown.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

export interface Session {
  transport: StreamableHTTPServerTransport
  server: McpServer
  keyHash: Buffer
  lastSeen: number
  active: number
  /** Past the handshake: a request after `initialize` arrived. */
  initialized: boolean
}

export interface PoolLimits {
  /** Sessions open at once, all keys together. */
  maxSessions: number
  /** Sessions one key may hold. */
  maxSessionsPerKey: number
  /** How long a new session may stay at `initialize` alone, ms. */
  handshakeMs: number
  /** Sessions without a request for this long are closed, ms. */
  sessionIdleMs: number
}

export class SessionPool {
  private readonly sessions = new Map<string, Session>()
  private reaper: NodeJS.Timeout | undefined

  constructor(
    readonly limits: PoolLimits,
    private readonly log: (line: string) => void,
  ) {}

  get size(): number {
    return this.sessions.size
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id)
  }

  /** Starts closing idle sessions (once the server listens). */
  startReaper(): void {
    const { sessionIdleMs } = this.limits
    this.reaper = setInterval(
      () => {
        const cutoff = Date.now() - sessionIdleMs
        for (const [id, s] of this.sessions)
          if (s.active === 0 && s.lastSeen < cutoff) {
            this.log(`session ${id} idle; closing`)
            void this.close(id, s)
          }
      },
      Math.min(60_000, sessionIdleMs),
    )
    this.reaper.unref()
  }

  /**
   * Closes the key's least recently used idle sessions until it holds fewer than its quota; false
   * when that is impossible because its sessions are busy.
   */
  makeRoomFor(keyHash: Buffer): boolean {
    const own = [...this.sessions].filter(([, s]) => timingSafeEqual(s.keyHash, keyHash))
    const excess = own.length - this.limits.maxSessionsPerKey + 1
    if (excess <= 0) return true
    const idle = own.filter(([, s]) => s.active === 0).sort((a, b) => a[1].lastSeen - b[1].lastSeen)
    if (idle.length < excess) return false
    for (const [id, s] of idle.slice(0, excess)) {
      this.log(`session ${id} closed: its key opened a newer one past the per-key limit`)
      void this.close(id, s)
    }
    return true
  }

  /**
   * Opens a session on `server` for an initialize request and answers it. The session joins the
   * pool once the transport names it; a request the transport refuses (e.g. a wrong Accept
   * header) leaves nothing behind.
   */
  async open(
    server: McpServer,
    keyHash: Buffer,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => this.joined(id, session),
    })
    const session: Session = {
      transport,
      server,
      keyHash,
      lastSeen: Date.now(),
      active: 0,
      initialized: false,
    }
    transport.onclose = () => {
      const id = transport.sessionId
      if (id && this.sessions.get(id) === session) {
        this.sessions.delete(id)
        this.log(`session ${id} closed`)
      }
    }
    await server.connect(transport)
    await this.serve(session, req, res, body)
    if (!transport.sessionId || !this.sessions.has(transport.sessionId)) await server.close().catch(() => {})
  }

  private joined(id: string, session: Session): void {
    // opens that raced past the caller's check are evened out here
    this.makeRoomFor(session.keyHash)
    this.sessions.set(id, session)
    this.log(`session ${id} opened`)
    // a client that sends `initialize` and nothing else holds a session for nothing
    const { handshakeMs } = this.limits
    setTimeout(() => {
      if (!session.initialized && this.sessions.get(id) === session) {
        this.log(`session ${id} closed: no request after initialize within ${handshakeMs} ms`)
        void this.close(id, session)
      }
    }, handshakeMs).unref()
  }

  /** Hands a request to the session's transport, counting it as in use until the response closes. */
  async serve(session: Session, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    session.active++
    session.lastSeen = Date.now()
    res.once('close', () => {
      session.active--
      session.lastSeen = Date.now()
    })
    await session.transport.handleRequest(req, res, body)
  }

  async close(id: string, s: Session): Promise<void> {
    this.sessions.delete(id)
    await s.server.close().catch(() => {})
  }

  /** Stops the reaper and closes every session (shutdown). */
  async closeAll(): Promise<void> {
    clearInterval(this.reaper)
    await Promise.all([...this.sessions].map(([id, s]) => this.close(id, s)))
  }
}
