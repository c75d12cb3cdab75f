/** Hand-built API bodies for the renderer and runner tests (shapes of src/contract). */
import type { RecentChecks, RunResult, SavedCheck } from '../../src/contract/index.js'

export const runResult = (over: { url?: string; score?: number; id?: string } = {}): RunResult => ({
  ok: true,
  data: {
    id: over.id ?? '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
    url: over.url ?? 'https://shop.example/',
    healthScore: over.score ?? 72,
    status: 'needs_review',
    riskLevel: 'medium',
    checks: {
      reachability: { status: 'ok', message: 'Answered 200 in 120 ms.', responseTimeMs: 120 },
      https: { status: 'ok', message: 'Valid certificate, expires in 80 days.' },
      responseTime: { status: 'warning', message: 'First byte after 900 ms.', responseTimeMs: 900 },
      securityHeaders: {
        status: 'needs_review',
        message: '2 of 6 security headers missing.',
        missing: ['content-security-policy', 'x-frame-options'],
      },
      pagespeed: { status: 'ok', message: 'Compressed, 40 KB.', performanceScore: 91 },
    },
    summary: 'Mostly healthy; add a Content-Security-Policy.',
    createdAt: '2025-06-01T12:00:00.000Z',
  },
  credits: { used: 1, remaining: 41 },
})

export const savedCheck: SavedCheck = {
  id: '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
  url: 'https://shop.example/',
  status: 'completed',
  health_score: 46,
  risk_level: 'high',
  created_at: '2025-06-01T12:00:00.000Z',
  summary: 'The certificate expired 3 days ago.',
  checks: {
    reachability: { status: 'ok', message: 'Answered 200 in 120 ms.' },
    https_ssl: { status: 'needs_review', message: 'Certificate expired on 2025-05-29.' },
    response_time: { status: 'ok', message: 'First byte after 120 ms.' },
    security_headers: { status: 'warning', message: '1 of 6 security headers missing.' },
    pagespeed: { status: 'unavailable', message: 'Not measured.' },
  },
}

export const recentPage = (n: number, next: string | null): RecentChecks => ({
  checks: Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    url: `https://site${i}.example/`,
    status: 'completed' as const,
    health_score: 90 - i,
    risk_level: 'low',
    created_at: new Date(Date.UTC(2025, 5, 1, 12, 0, 0) - i * 1000).toISOString(),
  })),
  next_cursor: next,
})

export const ESC = '\x1b'
