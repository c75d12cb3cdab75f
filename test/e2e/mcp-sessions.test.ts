/**
 * Issue 16 item 1 as attacks on the MCP Streamable HTTP server: one key flooding it with sessions
 * must not lock out other keys; sessions that never get past `initialize` are closed; a key whose
 * sessions are all busy is refused alone.
 */
import { Agent, fetch } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpServer, type RunningHttpServer } from '../../src/mcp/http.js'
import { startServe, type Served } from '../helpers/serve.js'

/**
 * No keep-alive: with a thousand requests on a busy machine, reusing a socket just as the server's
 * keep-alive timer closes it is a client-side ECONNRESET that has nothing to do with sessions.
 */
const dispatcher = new Agent({ pipelining: 0 })

let served: Served
let keyA: string
let keyB: string

beforeAll(async () => {
  served = await startServe()
  keyA = (await served.createKey({ user: 'flooder', credits: 1 })).key
  keyB = (await served.createKey({ user: 'bystander', credits: 1 })).key
})
afterAll(async () => {
  await served?.stop()
  await dispatcher.close()
})

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '0' } },
})
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

async function initialize(mcp: RunningHttpServer, key: string) {
  const res = await fetch(mcp.url, {
    method: 'POST',
    headers: { ...HEADERS, authorization: `Bearer ${key}` },
    body: INIT,
    dispatcher,
  })
  await res.text()
  return {
    status: res.status,
    session: res.headers.get('mcp-session-id'),
    retryAfter: res.headers.get('retry-after'),
  }
}

/** The client's second message; answers 202 on a live session, 404 on a closed one. */
async function initialized(mcp: RunningHttpServer, key: string, session: string) {
  const res = await fetch(mcp.url, {
    method: 'POST',
    headers: {
      ...HEADERS,
      authorization: `Bearer ${key}`,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    dispatcher,
  })
  await res.text()
  return res.status
}

describe('MCP HTTP sessions', () => {
  it('one key opening a thousand sessions in a burst does not lock out another key', async () => {
    const mcp = await startHttpServer({ apiUrl: served.url, port: 0, version: 'test' })
    try {
      const opened: string[] = []
      const statuses: Record<number, number> = {}
      for (let batch = 0; batch < 20; batch++) {
        const replies = await Promise.all(Array.from({ length: 50 }, () => initialize(mcp, keyA)))
        for (const r of replies) {
          statuses[r.status] = (statuses[r.status] ?? 0) + 1
          if (r.session) opened.push(r.session)
        }
      }
      const other = await initialize(mcp, keyB)
      expect(other.status, JSON.stringify(statuses)).toBe(200)
      expect(other.session).toBeTruthy()
      expect(await initialized(mcp, keyB, other.session!)).toBe(202)
      // the flooder keeps only its newest sessions: the oldest were closed to make room, and a
      // session it opens now works
      expect(await initialized(mcp, keyA, opened[0])).toBe(404)
      const latest = await initialize(mcp, keyA)
      expect(latest.status).toBe(200)
      expect(await initialized(mcp, keyA, latest.session!)).toBe(202)
    } finally {
      await mcp.close()
    }
  }, 120_000)

  it('closes a session that never gets past initialize, and keeps one that does', async () => {
    const mcp = await startHttpServer({ apiUrl: served.url, port: 0, version: 'test', handshakeMs: 300 })
    try {
      const silent = await initialize(mcp, keyA)
      const polite = await initialize(mcp, keyA)
      expect(await initialized(mcp, keyA, polite.session!)).toBe(202)
      await new Promise((r) => setTimeout(r, 900))
      expect(await initialized(mcp, keyA, silent.session!)).toBe(404)
      expect(await initialized(mcp, keyA, polite.session!)).toBe(202)
    } finally {
      await mcp.close()
    }
  })

  it('answers 429 to a key whose sessions are all busy, and only to that key', async () => {
    const mcp = await startHttpServer({ apiUrl: served.url, port: 0, version: 'test', maxSessionsPerKey: 2 })
    const streams = new AbortController()
    try {
      for (let i = 0; i < 2; i++) {
        const { session } = await initialize(mcp, keyA)
        expect(await initialized(mcp, keyA, session!)).toBe(202)
        // a standalone SSE stream keeps the session busy
        const sse = await fetch(mcp.url, {
          headers: {
            accept: 'text/event-stream',
            authorization: `Bearer ${keyA}`,
            'mcp-session-id': session!,
            'mcp-protocol-version': '2025-06-18',
          },
          signal: streams.signal,
          dispatcher,
        })
        expect(sse.status).toBe(200)
      }
      const third = await initialize(mcp, keyA)
      expect(third.status).toBe(429)
      expect(Number(third.retryAfter)).toBeGreaterThan(0)
      expect((await initialize(mcp, keyB)).status).toBe(200)
    } finally {
      streams.abort()
      await mcp.close()
    }
  })
})
