import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CheckRecord } from '../../src/store/types.js'

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'sitehealth-store-'))
}

/** Every file under `dir`, read as one text (latin1: any byte is one character). */
export async function dirBytes(dir: string): Promise<string> {
  const out: string[] = []
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(await readFile(join(e.parentPath, e.name), 'latin1'))
  return out.join('\n')
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true })
}

/** A saved check of realistic size (without id and created_at, which the store assigns). */
export function sampleCheck(userId: string, n = 0): Omit<CheckRecord, 'id' | 'created_at'> {
  return {
    user_id: userId,
    url: `https://example${n % 1000}.test/`,
    status: 'completed',
    health_score: n % 101,
    risk_level: 'low',
    summary: 'Healthy: reachable over HTTPS with a valid certificate, fast, most security headers present.',
    checks: {
      reachability: { status: 'ok', message: 'Responded 200 in 120 ms.', details: { status: 200, ms: 120 } },
      https_ssl: {
        status: 'ok',
        message: 'Valid certificate, expires in 80 days.',
        details: { daysLeft: 80 },
      },
      response_time: { status: 'ok', message: '120 ms to first byte.', details: { ttfbMs: 120 } },
      security_headers: {
        status: 'warning',
        message: 'Missing: content-security-policy.',
        details: { missing: ['content-security-policy'] },
      },
      pagespeed: { status: 'unavailable', message: 'Not measured.' },
    },
  }
}

export function importable(userId: string, n: number) {
  const { user_id: _u, ...rest } = sampleCheck(userId, n)
  return rest
}

/** Every file under dir (recursively), with its mode and size. */
export async function walk(dir: string): Promise<{ path: string; mode: number; size: number }[]> {
  const out: { path: string; mode: number; size: number }[] = []
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...(await walk(p)))
    else {
      const st = await stat(p)
      out.push({ path: p, mode: st.mode & 0o777, size: st.size })
    }
  }
  return out
}
