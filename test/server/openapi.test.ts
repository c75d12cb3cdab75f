import { createConfig, lintFromString } from '@redocly/openapi-core'
import { describe, expect, it } from 'vitest'
import { PATHS } from '../../src/contract/routes.js'
import { ERROR_CODES } from '../../src/contract/schemas.js'
import { ERROR_EXAMPLES, EXAMPLES } from '../../src/contract/examples.js'
import { DEFAULT_DOC_LIMITS, buildOpenApi } from '../../src/server/openapi/index.js'
import { schemaValidator } from '../helpers/openapi.js'
import { renderDocs } from '../../src/server/docs.js'

describe('openapi document', () => {
  const doc = buildOpenApi()

  it('is OpenAPI 3.1 with info.version 1.0.0', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('1.0.0')
  })

  it('is valid under a real validator (Redocly, recommended rules, no errors)', async () => {
    const config = await createConfig({ extends: ['recommended'] })
    const problems = await lintFromString({ source: JSON.stringify(doc), config })
    const errors = problems.filter((p) => p.severity === 'error')
    expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location[0]?.pointer}`)).toEqual([])
  })

  it('describes every route of the spec with its errors', () => {
    const paths = Object.keys(doc.paths)
    for (const p of [PATHS.health, PATHS.meta, PATHS.run, PATHS.runAlias, PATHS.credits, PATHS.recent])
      expect(paths).toContain(p)
    expect(paths).toContain('/api/public/v1/checks/{id}')
    const run = doc.paths[PATHS.run].post
    expect(Object.keys(run.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '402',
      '429',
      '500',
      '502',
      '503',
    ])
    expect(run.responses['429'].headers['Retry-After']).toBeDefined()
    expect(run.responses['503'].headers['Retry-After']).toBeDefined()
    expect(doc.paths[PATHS.runAlias].post.responses['200'].content['application/json'].schema).toEqual(
      run.responses['200'].content['application/json'].schema,
    )
  })

  it('declares the spec shapes, camelCase in the run result and snake_case elsewhere', () => {
    const s = doc.components.schemas
    expect(s.RunResult.properties.data.required).toEqual(
      expect.arrayContaining(['url', 'healthScore', 'status', 'checks', 'summary', 'createdAt']),
    )
    expect(s.RecentCheck.required).toEqual([
      'id',
      'url',
      'status',
      'health_score',
      'risk_level',
      'created_at',
    ])
    expect(s.CreditBalance.required).toEqual(['credits_remaining', 'plan', 'usage_note'])
  })

  it('declares what the server enforces: URL length, no extra fields, the admin user pattern', () => {
    const s = doc.components.schemas
    expect(s.RunRequest.properties.url.maxLength).toBe(2048)
    expect(s.RunRequest.additionalProperties).toBe(false)
    expect(s.KeyCreateRequest.additionalProperties).toBe(false)
    expect(s.CreditGrantRequest.additionalProperties).toBe(false)
    const user = doc.paths['/api/admin/v1/users/{user}/credits'].post.parameters[0]
    expect(new RegExp(user.schema.pattern).test('acme.ops-1')).toBe(true)
    expect(new RegExp(user.schema.pattern).test('client@example.com')).toBe(true)
    expect(new RegExp(user.schema.pattern).test('../x')).toBe(false)
  })

  it('declares the headers of every response: request id, rate limits past auth, challenges', () => {
    const resolve = (h: any) => (h.$ref ? doc.components.headers[String(h.$ref).split('/').pop()!] : h)
    for (const [path, methods] of Object.entries<any>(doc.paths))
      for (const [method, op] of Object.entries<any>(methods))
        for (const [status, r] of Object.entries<any>(op.responses)) {
          const where = `${method} ${path} ${status}`
          const names = Object.keys(r.headers ?? {})
          expect(names, where).toContain('X-Request-Id')
          if (status === '401') expect(names, where).toContain('WWW-Authenticate')
          if (status === '429' || status === '503') expect(names, where).toContain('Retry-After')
          const keyed = op.security?.[0]?.apiKey !== undefined
          if (keyed && status !== '401')
            expect(names, where).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']))
          for (const n of names) expect(resolve(r.headers[n]).schema, `${where} ${n}`).toBeDefined()
        }
    expect(doc.components.responses.MethodNotAllowed.headers.Allow).toBeDefined()
  })

  it('has a realistic example for every request and response, each valid against its schema', () => {
    const validate = schemaValidator(doc)
    const check = (media: any, where: string) => {
      const id = String(media.schema.$ref ?? '')
        .split('/')
        .pop()!
      const values =
        media.example !== undefined
          ? [media.example]
          : Object.values<any>(media.examples ?? {}).map((e) => e.value)
      expect(values.length, `${where}: no example`).toBeGreaterThan(0)
      for (const v of values) expect(validate(id, v), where).toEqual([])
    }
    for (const [path, methods] of Object.entries<any>(doc.paths))
      for (const [method, op] of Object.entries<any>(methods)) {
        const req = op.requestBody?.content?.['application/json']
        if (req) check(req, `${method} ${path} request`)
        for (const [status, r] of Object.entries<any>(op.responses)) {
          // a 204 and a 304 have no body (RFC 9110 §15.3.5, §15.4.5)
          if (status === '204' || status === '304') continue
          // a public badge is an image, not JSON
          if (r.content?.['image/svg+xml'] && !r.content['application/json']) continue
          const media = r.content?.['application/json']
          expect(media, `${method} ${path} ${status}`).toBeDefined()
          check(media, `${method} ${path} ${status}`)
        }
      }
    // every error code has an example, and a saved check's example carries its details
    for (const code of ERROR_CODES) expect(Object.keys(ERROR_EXAMPLES[code]).length, code).toBeGreaterThan(0)
    expect(Object.keys((EXAMPLES.SavedCheck as any).checks.https_ssl.details).length).toBeGreaterThan(5)
  })

  it('states the running server’s limits, not fixed numbers, in the document and on /docs', () => {
    const limits = {
      ...DEFAULT_DOC_LIMITS,
      runLimit: 7,
      runWindowSec: 90,
      apiLimit: 333,
      maxConcurrentChecks: 5,
    }
    const custom = buildOpenApi(limits)
    expect(custom.info.description).toContain('7 run-check requests per 90 s')
    expect(custom.paths[PATHS.run].post.description).toContain('7 runs per 90 s')
    const html = renderDocs(custom, limits)
    expect(html).toContain('7 run-check requests per 90 s')
    expect(html).toContain('333 requests per 60 s')
    expect(html).toContain('at most 5 on this server')
    expect(html).not.toContain('10 run-check requests')
    // the examples are on the page
    expect(html).toContain('shk_live_4kR9')
    expect(html).toContain('server_busy')
  })

  it('renders a self-contained docs page from the same document', () => {
    const html = renderDocs(doc)
    expect(html).toContain('/api/public/v1/checks/run')
    expect(html).toContain('insufficient_credits')
    expect(html).not.toMatch(/<script|https?:\/\/cdn|<link[^>]+href="http/i)
  })
})
