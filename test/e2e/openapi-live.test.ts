/**
 * The document is the contract: lint the LIVE /openapi.json with a maintained OpenAPI linter
 * (Redocly, recommended rules), then drive a real `serve` through every operation and every
 * status it documents and validate each live response against the document, as a validating
 * proxy would: the body against the response's schema (Ajv, JSON Schema 2020-12), every declared
 * header (present when required, value matching its schema), and every header the server sends
 * among the API's own (rate limits, request id, challenges, Retry-After, Allow) declared there.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHostileTargets, type HostileTargets } from '../fixtures/hostile.js'
import { startServe, type Served } from '../helpers/serve.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
const BASE = 'https://sitehealth.test/live-openapi.json'
/** The headers that are the API's own (not HTTP plumbing such as Date or Content-Length). */
const API_HEADERS = [
  'x-request-id',
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
  'www-authenticate',
  'allow',
]

type Json = Record<string, any>

let served: Served
let hostile: HostileTargets
let doc: Json
let ajv: Ajv2020
const seen = new Set<string>()

beforeAll(async () => {
  hostile = await startHostileTargets({ maxLifeMs: 20_000 })
  served = await startServe({
    args: [
      '--run-limit',
      '5',
      '--max-concurrent-checks',
      '1',
      '--check-timeout',
      '8',
      '--failure-limit',
      '2',
    ],
  })
  const res = await request(`${served.url}/openapi.json`)
  doc = (await res.body.json()) as Json
  ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ ...doc, $id: BASE })
})
afterAll(async () => {
  await served?.stop()
  await hostile?.close()
})

const pointer = (...parts: string[]) =>
  parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')

function resolve(obj: Json): Json {
  if (!obj?.$ref) return obj
  const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(String(obj.$ref))!
  return doc.components[kind][name]
}

interface Live {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: unknown
}

/** Validates one live response against the operation's documented response for its status. */
function conform(template: string, method: string, live: Live, responseRef?: string): string[] {
  let response: Json | undefined
  let schemaPath: string
  if (responseRef) {
    response = doc.components.responses[responseRef]
    schemaPath = `#/components/responses/${pointer(responseRef)}/content/${pointer('application/json')}/schema`
  } else {
    response = doc.paths[template]?.[method]?.responses?.[String(live.status)]
    schemaPath = `#/paths/${pointer(template, method, 'responses', String(live.status), 'content', 'application/json', 'schema')}`
  }
  const where = `${method.toUpperCase()} ${template} ${live.status}`
  if (!response) return [`${where}: status not documented`]
  seen.add(responseRef ? `component ${responseRef}` : where)
  const problems: string[] = []
  const validate = ajv.getSchema(`${BASE}${schemaPath}`)
  // a 204 has no body and declares none
  if (live.status === 204) {
    if (live.body !== undefined) problems.push(`${where}: a body on a 204`)
  } else if (!validate) problems.push(`${where}: no schema`)
  else if (!validate(live.body))
    problems.push(...(validate.errors ?? []).map((e) => `${where}: body ${e.instancePath} ${e.message}`))
  const declared = Object.fromEntries(
    Object.entries<Json>(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), resolve(h)]),
  )
  for (const [name, h] of Object.entries(declared)) {
    const value = live.headers[name]
    if (value === undefined) {
      if (h.required) problems.push(`${where}: required header ${name} missing`)
      continue
    }
    const check = ajv.compile(h.schema)
    if (!check(String(value)))
      problems.push(`${where}: header ${name}: ${JSON.stringify(value)} does not match its schema`)
  }
  for (const name of API_HEADERS)
    if (live.headers[name] !== undefined && !declared[name])
      problems.push(`${where}: header ${name} sent but not declared`)
  return problems
}

async function call(
  method: string,
  path: string,
  o: { key?: string; admin?: boolean; body?: unknown; token?: string } = {},
): Promise<Live> {
  const headers: Record<string, string> = {}
  if (o.key) headers.authorization = `Bearer ${o.key}`
  if (o.admin) headers.authorization = `Bearer ${served.adminToken}`
  if (o.token) headers.authorization = `Bearer ${o.token}`
  if (o.body !== undefined) headers['content-type'] = 'application/json'
  const res = await request(served.url + path, {
    method: method as 'GET',
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  })
  const text = await res.body.text()
  return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}

describe('the live /openapi.json', () => {
  it('passes a maintained OpenAPI linter (Redocly, recommended rules) without errors', async () => {
    const config = await createConfig({ extends: ['recommended'] })
    const problems = await lintFromString({ source: JSON.stringify(doc), config })
    const errors = problems.filter((p) => p.severity === 'error')
    expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location[0]?.pointer}`)).toEqual([])
  })

  it('describes every live response of every operation: bodies and headers', async () => {
    const problems: string[] = []
    const expectLive = (template: string, method: string, live: Live, status: number, ref?: string) => {
      if (live.status !== status)
        problems.push(
          `${method} ${template}: expected ${status}, got ${live.status} ${JSON.stringify(live.body)}`,
        )
      problems.push(...conform(template, method, live, ref))
    }
    const RUN = '/api/public/v1/checks/run'
    const ALIAS = '/api/v1/check'
    const CHECK = '/api/public/v1/checks/{id}'
    const RECENT = '/api/public/v1/checks/recent'
    const CREDITS = '/api/public/v1/credits'
    const KEYS = '/api/admin/v1/keys'
    const REVOKE = '/api/admin/v1/keys/{id}/revoke'
    const GRANT = '/api/admin/v1/users/{user}/credits'

    // open routes
    expectLive('/api/public/v1/health', 'get', await call('GET', '/api/public/v1/health'), 200)
    expectLive('/api/public/v1/meta', 'get', await call('GET', '/api/public/v1/meta'), 200)

    // admin routes
    const created = await call('POST', KEYS, {
      admin: true,
      body: { name: 'live', user: 'live', credits: 3 },
    })
    expectLive(KEYS, 'post', created, 201)
    const key = (created.body as Json).key as string
    const poor = (await call('POST', KEYS, { admin: true, body: { name: 'poor', user: 'poor', credits: 0 } }))
      .body as Json
    const runner2 = (
      await call('POST', KEYS, { admin: true, body: { name: 'r2', user: 'live2', credits: 5 } })
    ).body as Json
    expectLive(KEYS, 'post', await call('POST', KEYS, { admin: true, body: { name: 'x', extra: 1 } }), 400)
    expectLive(KEYS, 'get', await call('GET', KEYS, { admin: true }), 200)
    expectLive(
      KEYS,
      'get',
      await call('GET', KEYS, { token: 'not-the-admin-token-but-long-enough-0123' }),
      401,
    )
    expectLive(
      GRANT,
      'post',
      await call('POST', '/api/admin/v1/users/live/credits', { admin: true, body: { amount: 2 } }),
      200,
    )
    expectLive(
      GRANT,
      'post',
      await call('POST', '/api/admin/v1/users/live/credits', { admin: true, body: { amount: -1 } }),
      400,
    )
    const gone = (await call('POST', KEYS, { admin: true, body: { name: 'gone' } })).body as Json
    expectLive(
      REVOKE,
      'post',
      await call('POST', `/api/admin/v1/keys/${gone.id}/revoke`, { admin: true }),
      200,
    )
    expectLive(
      REVOKE,
      'post',
      await call('POST', '/api/admin/v1/keys/00000000-0000-4000-8000-000000000000/revoke', { admin: true }),
      404,
    )

    // key routes
    expectLive(CREDITS, 'get', await call('GET', CREDITS, { key }), 200)
    expectLive(CREDITS, 'get', await call('GET', CREDITS), 401)
    expectLive(CREDITS, 'get', await call('GET', CREDITS, { key: gone.key }), 401)
    const ran = await call('POST', RUN, { key, body: { url: hostile.ok } })
    expectLive(RUN, 'post', ran, 200)
    const id = ((ran.body as Json).data as Json).id as string
    expectLive(RUN, 'post', await call('POST', RUN, { body: { url: hostile.ok } }), 401)
    expectLive(RUN, 'post', await call('POST', RUN, { key, body: { url: 'ftp://example.com/' } }), 400)
    // an extra field: refused, as the document's additionalProperties says
    expectLive(RUN, 'post', await call('POST', RUN, { key, body: { url: hostile.ok, extra: 1 } }), 400)
    expectLive(
      RUN,
      'post',
      await call('POST', RUN, { key, body: { url: `https://x.example/${'a'.repeat(2100)}` } }),
      400,
    )
    expectLive(ALIAS, 'post', await call('POST', ALIAS, { key: poor.key, body: { url: hostile.ok } }), 402)
    expectLive(
      RUN,
      'post',
      await call('POST', RUN, { key: runner2.key, body: { url: hostile.notHttp } }),
      502,
    )
    // one check slot: a silent target holds it, the next run waits briefly and gets 503
    const before = hostile.stats.requests
    const holder = call('POST', RUN, { key: runner2.key, body: { url: hostile.silent } })
    // the silent target has the request: the slot is taken
    for (let i = 0; i < 100 && hostile.stats.requests === before; i++)
      await new Promise((r) => setTimeout(r, 50))
    expectLive(RUN, 'post', await call('POST', ALIAS, { key, body: { url: hostile.ok } }), 503)
    expectLive(RUN, 'post', await holder, 502)
    // the failure budget (2) is spent: 429 with Retry-After
    expectLive(RUN, 'post', await call('POST', RUN, { key: runner2.key, body: { url: hostile.ok } }), 429)
    // the run limit (5 per window) for `key` is spent by now: 429
    expectLive(RUN, 'post', await call('POST', RUN, { key, body: { url: hostile.ok } }), 429)
    expectLive(RECENT, 'get', await call('GET', `${RECENT}?limit=10`, { key }), 200)
    expectLive(RECENT, 'get', await call('GET', `${RECENT}?limit=7`, { key }), 400)
    expectLive(CHECK, 'get', await call('GET', `/api/public/v1/checks/${id}`, { key }), 200)
    expectLive(CHECK, 'get', await call('GET', '/api/public/v1/checks/not-a-uuid', { key }), 400)
    expectLive(
      CHECK,
      'get',
      await call('GET', '/api/public/v1/checks/00000000-0000-4000-8000-000000000000', { key }),
      404,
    )
    // a method the path does not support
    expectLive(RUN, 'get', await call('GET', RUN, { key }), 405, 'MethodNotAllowed')
    expectLive(
      CHECK,
      'delete',
      await call('DELETE', `/api/public/v1/checks/${id}`, { key }),
      405,
      'MethodNotAllowed',
    )

    // monitor routes (docs/decisions.md#monitors-and-alerts), with a key of their own so the windows above do not interfere
    const MONITORS = '/api/public/v1/monitors'
    const MONITOR = '/api/public/v1/monitors/{id}'
    const watcher = (
      await call('POST', KEYS, { admin: true, body: { name: 'mon', user: 'watcher', credits: 5 } })
    ).body as Json
    const mkey = watcher.key as string
    const mon = await call('POST', MONITORS, {
      key: mkey,
      body: {
        url: hostile.ok,
        interval_seconds: 3600,
        name: 'ok',
        alerts: { down_after: 2, min_score: 50 },
        channels: [{ type: 'webhook', url: hostile.ok }],
      },
    })
    expectLive(MONITORS, 'post', mon, 201)
    const mid = (mon.body as Json).id as string
    const at = (suffix = '') => `${MONITORS}/${mid}${suffix}`
    expectLive(MONITORS, 'post', await call('POST', MONITORS, { key: mkey, body: { url: 'ftp://x' } }), 400)
    expectLive(MONITORS, 'post', await call('POST', MONITORS, { body: { url: hostile.ok } }), 401)
    expectLive(MONITORS, 'get', await call('GET', MONITORS, { key: mkey }), 200)
    expectLive(MONITORS, 'get', await call('GET', `${MONITORS}?limit=7`, { key: mkey }), 400)
    expectLive(MONITOR, 'get', await call('GET', at(), { key: mkey }), 200)
    expectLive(MONITOR, 'get', await call('GET', `${MONITORS}/not-a-uuid`, { key: mkey }), 400)
    expectLive(
      MONITOR,
      'get',
      await call('GET', `${MONITORS}/00000000-0000-4000-8000-000000000000`, { key: mkey }),
      404,
    )
    // another user's monitor is as unknown as a missing one
    expectLive(MONITOR, 'get', await call('GET', at(), { key: runner2.key as string }), 404)
    expectLive(MONITOR, 'patch', await call('PATCH', at(), { key: mkey, body: { paused: true } }), 200)
    expectLive(MONITOR, 'patch', await call('PATCH', at(), { key: mkey, body: { nope: 1 } }), 400)
    expectLive(`${MONITOR}/run`, 'post', await call('POST', at('/run'), { key: mkey }), 200)
    expectLive(`${MONITOR}/runs`, 'get', await call('GET', at('/runs'), { key: mkey }), 200)
    expectLive(`${MONITOR}/events`, 'get', await call('GET', at('/events'), { key: mkey }), 200)
    expectLive(MONITOR, 'delete', await call('DELETE', at(), { key: mkey }), 204)
    expectLive(MONITOR, 'delete', await call('DELETE', at(), { key: mkey }), 404)

    expect(problems).toEqual([])
    // every documented status of the run route was seen live
    for (const status of Object.keys(doc.paths[RUN].post.responses).filter((s) => s !== '500'))
      expect(
        [...seen].some(
          (s) => s.startsWith(`POST ${RUN} ${status}`) || s.startsWith(`POST ${ALIAS} ${status}`),
        ),
        status,
      ).toBe(true)
  }, 90_000)
})
