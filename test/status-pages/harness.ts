/**
 * An in-process server for status-page tests: the real app over an embedded store in a temp dir,
 * keys and monitors written straight to the store, and an uptime port the test controls.
 */
import { randomUUID } from 'node:crypto'
import { displayPrefix, generateApiKey } from '../../src/contract/api-key.js'
import { nextId } from '../../src/monitors/ids.js'
import { INITIAL_MEMORY } from '../../src/monitors/rules.js'
import { composeApp, type ComposeOptions } from '../../src/serve/index.js'
import { hashKey } from '../../src/contract/api-key.js'
import { DEFAULT_LIMITS } from '../../src/server/context.js'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import type { MonitorRecord } from '../../src/store/monitors.js'
import type { UptimePort } from '../../src/status-pages/index.js'
import { removeDir, tempDir } from '../store/helpers.js'

export interface Harness {
  store: LowdbStore
  fetch: (path: string, init?: RequestInit & { key?: string }) => Promise<Response>
  api: (key: string, method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>
  newKey: (user: string) => Promise<string>
  monitor: (user: string, over?: Partial<MonitorRecord>) => Promise<MonitorRecord>
  /** Uptime figures the port answers with, per monitor id. */
  uptime: Map<string, { percent: number; incidents?: { started_at: string; ended_at: string | null }[] }>
  /** The composed app (its subscribers' sender: `app.close()` stops it). */
  app: ReturnType<typeof composeApp>
  close: () => Promise<void>
}

/** `rollups`: the status pages read the monitors' real rollups (serve's default) instead of `uptime`. */
export async function startHarness(
  o: { rollups?: boolean; subscribers?: ComposeOptions['subscribers'] } = {},
): Promise<Harness> {
  const dir = await tempDir()
  const store = await openLowdbStore(dir)
  const uptime: Harness['uptime'] = new Map()
  const port: UptimePort = {
    windows: async (ms) =>
      new Map(
        ms.map((m) => {
          const p = uptime.get(m.id)?.percent ?? null
          return [m.id, { '24h': p, '7d': p, '30d': p }]
        }),
      ),
    days: async (ms, _from, count) =>
      new Map(ms.map((m) => [m.id, new Array<number | null>(count).fill(uptime.get(m.id)?.percent ?? null)])),
    incidents: async (ms) => new Map(ms.map((m) => [m.id, uptime.get(m.id)?.incidents ?? []])),
    maintenance: async () => [],
  }
  const opts: ComposeOptions = {
    store,
    initialCredits: 10,
    allowPrivateTargets: true,
    adminToken: 'x'.repeat(40),
    publicUrl: 'https://status.example.test',
    limits: { ...DEFAULT_LIMITS, apiLimit: 10_000 },
    checkTimeoutMs: 5000,
    ...(o.rollups ? {} : { uptime: port }),
    ...(o.subscribers ? { subscribers: o.subscribers } : {}),
  }
  const composed = composeApp(opts)
  const { app } = composed
  const h: Harness = {
    store,
    uptime,
    app: composed,
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers)
      if (init.key) headers.set('authorization', `Bearer ${init.key}`)
      return Promise.resolve(app.fetch(new Request(`http://127.0.0.1${path}`, { ...init, headers })))
    },
    async api(key, method, path, body) {
      const res = await h.fetch(path, {
        method,
        key,
        headers: body !== undefined ? { 'content-type': 'application/json' } : {},
        body: body !== undefined ? JSON.stringify(body) : undefined,
      })
      const text = await res.text()
      return { status: res.status, body: text ? JSON.parse(text) : null }
    },
    async newKey(user) {
      await store.users.ensure(user, 10)
      const key = generateApiKey()
      await store.keys.create({
        id: randomUUID(),
        name: 't',
        user_id: user,
        prefix: displayPrefix(key),
        hash: hashKey(key),
        created_at: new Date().toISOString(),
        last_used_at: null,
        revoked_at: null,
      })
      return key
    },
    async monitor(user, over = {}) {
      const now = new Date().toISOString()
      return store.monitors.createMonitor({
        id: nextId(),
        user_id: user,
        url: 'https://shop.example.test/secret-path',
        name: 'Shop',
        interval_seconds: 60,
        paused: false,
        paused_reason: null,
        state: 'up',
        last_check: {
          id: randomUUID(),
          health_score: 87,
          risk_level: 'low',
          status: 'ok',
          created_at: now,
        },
        next_run_at: null,
        created_at: now,
        updated_at: now,
        alerts: { down_after: 2, min_score: null },
        channels: [],
        memory: INITIAL_MEMORY,
        ...over,
      })
    },
    async close() {
      await composed.close()
      await store.close()
      await removeDir(dir)
    },
  }
  return h
}
