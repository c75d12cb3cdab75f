import { createConfig, lintFromString } from '@redocly/openapi-core'
import { describe, expect, it } from 'vitest'
import { PATHS } from '../../src/contract/routes.js'
import { buildOpenApi } from '../../src/server/openapi.js'
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
    expect(Object.keys(run.responses).sort()).toEqual(['200', '400', '401', '402', '429', '500', '502'])
    expect(run.responses['429'].headers['Retry-After']).toBeDefined()
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

  it('renders a self-contained docs page from the same document', () => {
    const html = renderDocs(doc)
    expect(html).toContain('/api/public/v1/checks/run')
    expect(html).toContain('insufficient_credits')
    expect(html).not.toMatch(/<script|https?:\/\/cdn|<link[^>]+href="http/i)
  })
})
