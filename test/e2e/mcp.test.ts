/**
 * The MCP server end to end: the SDK's own Client against the built CLI's `mcp`, over stdio and
 * over Streamable HTTP, both talking to a real `serve` with a local HTML target on 127.0.0.1.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { execa, type ResultPromise } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/contract/api-key.js'
import { CLI, startServe, type Served } from '../helpers/serve.js'

const TOOLS = [
  'service_create_maintenance_window',
  'service_create_monitor',
  'service_create_status_incident',
  'service_delete_maintenance_window',
  'service_get_check_result',
  'service_get_credits',
  'service_get_monitor_uptime',
  'service_get_recent_checks',
  'service_health',
  'service_list_maintenance_windows',
  'service_list_monitors',
  'service_list_status_incidents',
  'service_list_status_pages',
  'service_resolve_status_incident',
  'service_run_website_check',
  'service_update_maintenance_window',
  'service_update_status_incident',
]

/** The tools that change something, and how they say so; every other tool is read-only. */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false }
const WRITES: Record<string, object> = {
  service_run_website_check: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
  service_create_monitor: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
  service_create_maintenance_window: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  service_delete_maintenance_window: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  service_update_maintenance_window: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  service_create_status_incident: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  service_update_status_incident: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  service_resolve_status_incident: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
}

const pkg = JSON.parse(await readFile(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
  version: string
}

let served: Served
let target: { url: string; close: () => Promise<void> }
let home: string

async function startTarget() {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff' })
    res.end('<!doctype html><html lang="en"><title>mcp target</title><p>hello</p></html>')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

/** The API's own body for a GET, to compare with a tool's structuredContent. */
async function apiGet(path: string, key?: string): Promise<any> {
  const res = await fetch(served.url + path, { headers: key ? { authorization: `Bearer ${key}` } : {} })
  expect(res.status, path).toBe(200)
  return res.json()
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
}

async function credits(client: Client): Promise<number> {
  const r = await call(client, 'service_get_credits')
  expect(r.isError, text(r)).toBeFalsy()
  return (r.structuredContent as { credits_remaining: number }).credits_remaining
}

beforeAll(async () => {
  target = await startTarget()
  served = await startServe({ args: ['--run-limit', '1000', '--rate-limit', '100000', '--quiet'] })
  home = await mkdtemp(join(tmpdir(), 'sitehealth-mcp-home-'))
})

afterAll(async () => {
  await served?.stop()
  await target?.close()
  if (home) await rm(home, { recursive: true, force: true })
})

/** The same checks over either transport, given a connected client and its key. */
async function exerciseTools(client: Client, key: string) {
  // tools/list: names, schemas, annotations
  const { tools } = await client.listTools()
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS)
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
  for (const t of tools) {
    expect(t.title, t.name).toBeTruthy()
    expect(t.description!.length, t.name).toBeGreaterThan(80)
    expect(t.outputSchema?.type, t.name).toBe('object')
    expect(t.annotations, t.name).toMatchObject(WRITES[t.name] ?? READ_ONLY)
  }
  expect(byName.service_run_website_check.description).toMatch(/1 credit/)
  const run = byName.service_run_website_check
  expect(run.inputSchema.required).toEqual(['url'])
  expect((run.inputSchema.properties as any).url).toMatchObject({
    type: 'string',
    pattern: expect.any(String),
  })
  // JSON Schema patterns have no `i` flag: the declared pattern itself must accept what the API accepts
  const urlPattern = new RegExp((run.inputSchema.properties as any).url.pattern, 'u')
  // a bare host means https, as in `check` and `monitors create` (contract/target-url.ts)
  for (const ok of [
    'https://example.com/',
    'HTTP://EXAMPLE.COM/',
    'Https://example.com/a?b=c',
    'example.com',
  ])
    expect(urlPattern.test(ok), ok).toBe(true)
  for (const bad of ['ftp://example.com/', 'https://exa mple.com/'])
    expect(urlPattern.test(bad), bad).toBe(false)
  expect(run.outputSchema!.required).toEqual(['ok', 'data', 'credits'])
  const get = byName.service_get_check_result
  expect(get.inputSchema.required).toEqual(['id'])
  expect((get.inputSchema.properties as any).id).toMatchObject({ type: 'string', format: 'uuid' })
  const recent = byName.service_get_recent_checks
  expect(recent.inputSchema.required ?? []).toEqual([])
  expect((recent.inputSchema.properties as any).limit.enum).toEqual([10, 25, 50])
  expect((recent.inputSchema.properties as any).cursor).toMatchObject({ type: 'string', format: 'date-time' })
  expect(byName.service_get_credits.outputSchema!.required).toEqual([
    'credits_remaining',
    'plan',
    'usage_note',
  ])

  // service_health: the API's body
  const health = await call(client, 'service_health')
  expect(health.isError).toBeFalsy()
  expect(health.structuredContent).toEqual(await apiGet('/api/public/v1/health'))

  // service_get_credits: the API's body
  const creditsResult = await call(client, 'service_get_credits')
  expect(creditsResult.structuredContent).toEqual(await apiGet('/api/public/v1/credits', key))
  const before = await credits(client)

  // service_run_website_check: exactly one credit
  const ran = await call(client, 'service_run_website_check', { url: target.url })
  expect(ran.isError, text(ran)).toBeFalsy()
  const body = ran.structuredContent as any
  expect(body.ok).toBe(true)
  expect(body.data.url).toBe(target.url)
  expect(body.credits).toEqual({ used: 1, remaining: before - 1 })
  expect(text(ran)).toContain(`health ${body.data.healthScore}/100`)
  expect(text(ran)).toContain(body.data.id)
  expect(text(ran)).toContain(`${before - 1} credits left`)
  // this serve has no lab browser: the performance was estimated, and the text says so
  expect(body.data.checks.pagespeed.method).toBe('estimate')
  expect(text(ran)).toContain(
    `Performance ${body.data.checks.pagespeed.performanceScore}/100, estimated without a browser.`,
  )
  expect(await credits(client)).toBe(before - 1)

  // service_get_check_result: the API's body
  const got = await call(client, 'service_get_check_result', { id: body.data.id })
  expect(got.isError, text(got)).toBeFalsy()
  expect(got.structuredContent).toEqual(await apiGet(`/api/public/v1/checks/${body.data.id}`, key))
  expect(text(got)).toContain(body.data.id)
  expect(text(got)).toContain('estimated without a browser')

  // service_get_recent_checks: the API's body, limit and cursor passed through
  const pages = await call(client, 'service_list_status_pages')
  expect(pages.isError, text(pages)).toBeFalsy()
  expect(pages.structuredContent).toEqual(await apiGet('/api/public/v1/status-pages', key))
  const page = await call(client, 'service_get_recent_checks', { limit: 10 })
  expect(page.isError, text(page)).toBeFalsy()
  expect(page.structuredContent).toEqual(await apiGet('/api/public/v1/checks/recent?limit=10', key))
  const first = (page.structuredContent as any).checks[0]
  expect(first.id).toBe(body.data.id)
  const older = await call(client, 'service_get_recent_checks', { limit: 25, cursor: first.created_at })
  expect(older.isError, text(older)).toBeFalsy()
  expect(older.structuredContent).toEqual(
    await apiGet(`/api/public/v1/checks/recent?limit=25&cursor=${encodeURIComponent(first.created_at)}`, key),
  )
  expect((older.structuredContent as any).checks.map((c: any) => c.id)).not.toContain(body.data.id)

  // invalid URLs: tool errors with the code, nothing charged
  const after = await credits(client)
  const ftp = await call(client, 'service_run_website_check', { url: 'ftp://x' })
  expect(ftp.isError).toBe(true)
  expect(ftp.structuredContent).toBeUndefined()
  // as the README says: the SDK's input validation wraps the API-style code in its own prefix
  expect(text(ftp)).toMatch(/^MCP error -32602: Input validation error: .*invalid_url: /)
  const badPort = await call(client, 'service_run_website_check', { url: 'http://example.com:99999/' })
  expect(badPort.isError).toBe(true)
  expect(text(badPort)).toMatch(/^invalid_url: /)
  // a bare host:port is tried as https; the plain-HTTP target fails that, and the error names http://
  const bare = new URL(target.url).host
  const tried = await call(client, 'service_run_website_check', { url: bare })
  expect(tried.isError).toBe(true)
  expect(text(tried)).toMatch(/^check_failed: /)
  expect(text(tried)).toContain(`http://${bare}/`)
  expect(await credits(client)).toBe(after)

  // other API errors are tool errors too
  const missing = await call(client, 'service_get_check_result', {
    id: '00000000-0000-4000-8000-000000000000',
  })
  expect(missing.isError).toBe(true)
  expect(text(missing)).toMatch(/^not_found: /)
  const badLimit = await call(client, 'service_get_recent_checks', { limit: 7 })
  expect(badLimit.isError).toBe(true)
  const badId = await call(client, 'service_get_check_result', { id: 'nope' })
  expect(badId.isError).toBe(true)
}

describe('mcp over stdio', () => {
  let key: string
  const protocolErrors: Error[] = []

  function stdioClient(env: Record<string, string>) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', ...env },
      stderr: 'pipe',
    })
    const client = new Client({ name: 'sitehealth-test', version: '0.0.0' })
    client.onerror = (err) => protocolErrors.push(err)
    return { client, transport }
  }

  beforeAll(async () => {
    key = (await served.createKey({ user: 'mcp-stdio', credits: 5 })).key
  })

  it('serves the five tools with the API key from the environment', async () => {
    const { client, transport } = stdioClient({ SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key })
    await client.connect(transport)
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'sitehealth-mcp', version: pkg.version })
      await exerciseTools(client, key)
      // stdout carried nothing but JSON-RPC
      expect(protocolErrors).toEqual([])
    } finally {
      // Closing stdin stops the server by itself (the SDK would SIGTERM it after 2 s).
      const t0 = Date.now()
      await client.close()
      expect(Date.now() - t0).toBeLessThan(1900)
    }
  })

  it('reads the API URL and key from the config file', async () => {
    const configHome = await mkdtemp(join(tmpdir(), 'sitehealth-mcp-config-'))
    try {
      await mkdir(join(configHome, 'sitehealth'), { recursive: true })
      await writeFile(
        join(configHome, 'sitehealth', 'config.json'),
        JSON.stringify({ api_url: served.url, api_key: key }),
        { mode: 0o600 },
      )
      const { client, transport } = stdioClient({ XDG_CONFIG_HOME: configHome })
      await client.connect(transport)
      try {
        expect(await credits(client)).toBe((await apiGet('/api/public/v1/credits', key)).credits_remaining)
      } finally {
        await client.close()
      }
    } finally {
      await rm(configHome, { recursive: true, force: true })
    }
  })

  it('starts without a key: health works, the others say how to set one', async () => {
    const { client, transport } = stdioClient({ SITEHEALTH_API_URL: served.url })
    await client.connect(transport)
    try {
      const health = await call(client, 'service_health')
      expect(health.isError).toBeFalsy()
      expect((health.structuredContent as any).ok).toBe(true)
      for (const [name, args] of [
        ['service_get_credits', {}],
        ['service_run_website_check', { url: target.url }],
        ['service_get_recent_checks', {}],
      ] as const) {
        const r = await call(client, name, args)
        expect(r.isError, name).toBe(true)
        expect(text(r)).toMatch(/^no_api_key: .*SITEHEALTH_API_KEY/)
      }
      expect(protocolErrors).toEqual([])
    } finally {
      await client.close()
    }
  })
})

describe('mcp over Streamable HTTP', () => {
  let proc: ResultPromise
  let stderr = ''
  let base: string
  let port: number
  let key: string
  let otherKey: string

  function httpClient(k: string) {
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${k}` } },
    })
    return { client: new Client({ name: 'sitehealth-test', version: '0.0.0' }), transport }
  }

  /** A raw request through node:http, which (unlike fetch) lets a test set Host. */
  function raw(path: string, headers: Record<string, string>, method = 'GET') {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        let data = ''
        res.on('data', (d) => (data += d))
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(data) }),
        )
      })
      req.on('error', reject)
      req.end()
    })
  }

  const initBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  })
  const post = (headers: Record<string, string>, body = initBody) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    })

  beforeAll(async () => {
    key = (await served.createKey({ user: 'mcp-http', credits: 5 })).key
    otherKey = (await served.createKey({ user: 'mcp-http-other', credits: 3 })).key
    proc = execa(process.execPath, [CLI, 'mcp', '--transport', 'http', '--port', '0'], {
      env: {
        SITEHEALTH_API_URL: served.url,
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        NO_COLOR: '1',
      },
      extendEnv: false,
      reject: false,
      buffer: false,
    })
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mcp did not start:\n${stderr}`)), 20_000)
      proc.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString()
        const m = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr)
        if (m) {
          clearTimeout(timer)
          resolve(Number(m[1]))
        }
      })
      void proc.then(() => reject(new Error(`mcp exited:\n${stderr}`)))
    })
    base = `http://127.0.0.1:${port}`
  })

  afterAll(async () => {
    if (proc !== undefined && proc.exitCode === null) {
      proc.kill('SIGTERM')
      await proc
    }
  })

  it('binds a real port on 127.0.0.1 and answers /health without a key', async () => {
    expect(port).toBeGreaterThan(0)
    const res = await fetch(`${base}/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ ok: true, service: 'sitehealth-mcp' })
  })

  it('refuses /mcp without a key or with a bad one (401, WWW-Authenticate: Bearer)', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${generateApiKey()}` }, // well-formed, unknown to the API
      { authorization: 'Bearer shk_live_nope' }, // malformed
      { authorization: `Basic ${Buffer.from(`x:${key}`).toString('base64')}` },
    ]
    for (const headers of attempts) {
      const res = await post(headers)
      expect(res.status, JSON.stringify(headers)).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
      const body = (await res.json()) as any
      expect(body.ok).toBe(false)
      expect(body.error.code).toMatch(/api_key/)
    }
    const get = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } })
    expect(get.status).toBe(401)
  })

  it('refuses a foreign Origin or Host (403)', async () => {
    const evil = await post({ authorization: `Bearer ${key}`, origin: 'http://evil.example' })
    expect(evil.status).toBe(403)
    expect(((await evil.json()) as any).error.code).toBe('forbidden')
    expect((await fetch(`${base}/health`, { headers: { origin: 'https://evil.example' } })).status).toBe(403)
    // local origins are fine
    const local = await post({ authorization: `Bearer ${key}`, origin: 'http://localhost:3000' })
    expect(local.status).toBe(200)
    await local.body?.cancel()

    const foreignHost = await raw('/health', { host: `evil.example:${port}` })
    expect(foreignHost.status).toBe(403)
    const rebound = await raw(
      '/mcp',
      { host: `evil.example:${port}`, authorization: `Bearer ${key}` },
      'POST',
    )
    expect(rebound.status).toBe(403)
    const localhost = await raw('/health', { host: `localhost:${port}` })
    expect(localhost.status).toBe(200)
  })

  it('serves the five tools with the session key', async () => {
    const { client, transport } = httpClient(key)
    await client.connect(transport)
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'sitehealth-mcp', version: pkg.version })
      await exerciseTools(client, key)
    } finally {
      await client.close()
    }
  })

  it('keeps keys apart between sessions and ends a session on DELETE', async () => {
    const a = httpClient(key)
    const b = httpClient(otherKey)
    await a.client.connect(a.transport)
    await b.client.connect(b.transport)
    try {
      const [ca, cb] = await Promise.all([credits(a.client), credits(b.client)])
      expect(ca).toBe((await apiGet('/api/public/v1/credits', key)).credits_remaining)
      expect(cb).toBe(3)
      // A's session with B's key is refused.
      const hijack = await post(
        {
          authorization: `Bearer ${otherKey}`,
          'mcp-session-id': a.transport.sessionId!,
          'mcp-protocol-version': '2025-06-18',
        },
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      )
      expect(hijack.status).toBe(403)
      // DELETE ends the session; it is then unknown.
      const sid = b.transport.sessionId!
      await b.transport.terminateSession()
      const gone = await post(
        { authorization: `Bearer ${otherKey}`, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      )
      expect(gone.status).toBe(404)
    } finally {
      await a.client.close()
      await b.client.close()
    }
  })

  it('stops cleanly on SIGTERM', async () => {
    const { client, transport } = httpClient(key)
    await client.connect(transport) // an open session must not hold the process
    proc.kill('SIGTERM')
    const result = await proc
    expect(result.exitCode).toBe(0)
    await client.close().catch(() => {})
  })
})
