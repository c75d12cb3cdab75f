/**
 * Limits on inbound connections (issue 16 item 8): 300 idle sockets from one unauthenticated
 * client, under a small file-descriptor limit, used to starve every check of outbound sockets.
 *
 * - At most `maxConnections` at once, by default half the process's file-descriptor limit
 *   (capped at 1024): the other half stays free for the checks' outbound sockets and the store.
 * - At the cap, a new connection is not simply dropped (that would hand the server to whoever
 *   connected first): an idle connection (no request in progress: never sent one, still
 *   trickling its headers, or an idle keep-alive) of the client holding the most connections is
 *   closed to make room. A client that keeps hundreds of sockets open only ever evicts its own;
 *   a request in progress is never cut. Only when every connection is busy is the newcomer refused.
 * - Short header timeouts, checked every second, so idle or trickling sockets are closed within
 *   seconds rather than Node's default 30 s sweep (see `HTTP_TIMEOUTS`).
 *
 * Behind a reverse proxy every client shares the proxy's address: limit clients at the proxy too
 * (nginx `limit_conn`/`limit_req`), as docs/self-hosting.md#on-one-machine says.
 */
import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { Socket } from 'node:net'

export const HTTP_TIMEOUTS = {
  /** The whole request head must arrive within this, ms. */
  headersTimeout: 10_000,
  /** The whole request (head and body) must arrive within this, ms. */
  requestTimeout: 30_000,
  /** An idle keep-alive connection is closed after this, ms. */
  keepAliveTimeout: 5_000,
  /** How often Node looks for connections past those timeouts, ms (its default is 30 s). */
  connectionsCheckingInterval: 1_000,
} as const

/** The soft RLIMIT_NOFILE of this process, where the platform tells (Linux); else undefined. */
export function fileDescriptorLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
    if (!m) return undefined
    return m[1] === 'unlimited' ? Infinity : Number(m[1])
  } catch {
    return undefined
  }
}

export function defaultMaxConnections(fdLimit = fileDescriptorLimit()): number {
  if (fdLimit === undefined || !Number.isFinite(fdLimit)) return 1024
  return Math.max(16, Math.min(1024, Math.floor(fdLimit / 2)))
}

/** Applies the cap and the eviction rule to `server`; returns a view for tests and logs. */
export function limitConnections(server: Server, maxConnections: number): { open: () => number } {
  const byClient = new Map<string, Set<Socket>>()
  let open = 0
  /**
   * A connection is busy while a response is attached to it: node:http attaches each response to
   * its socket as `_httpMessage` from the moment its request has arrived until it has finished
   * (pipelined ones in turn), the same field the server's `clientError` handler reads. Reading it
   * when evicting costs nothing per request, unlike a listener on every request or response.
   */
  const busy = (socket: Socket) => (socket as { _httpMessage?: unknown })._httpMessage != null

  const forget = (socket: Socket, client: string) => {
    const set = byClient.get(client)
    if (!set?.delete(socket)) return false
    if (set.size === 0) byClient.delete(client)
    open--
    return true
  }

  /** Closes one idle connection of the biggest client that has one; false when all are busy. */
  const evictIdle = (): boolean => {
    const clients = [...byClient].sort((a, b) => b[1].size - a[1].size)
    for (const [client, sockets] of clients)
      for (const socket of sockets)
        if (!busy(socket)) {
          forget(socket, client)
          socket.destroy()
          return true
        }
    return false
  }

  server.on('connection', (socket: Socket) => {
    if (open >= maxConnections && !evictIdle()) {
      socket.destroy()
      return
    }
    const client = socket.remoteAddress ?? 'unknown'
    let set = byClient.get(client)
    if (!set) byClient.set(client, (set = new Set()))
    set.add(socket)
    open++
    socket.once('close', () => forget(socket, client))
  })
  return { open: () => open }
}
