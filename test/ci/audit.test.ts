// CI's dependency audit (.ci/audit.mjs): a production package with a known high or critical
// advisory in the lockfile fails the step, offline; a dev-only one does not; and a registry whose
// advisory endpoint cannot be reached is a notice, not a failure.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, expect, it } from 'vitest'

const AUDIT = new URL('../../.ci/audit.mjs', import.meta.url).pathname
const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

/** Runs the audit in a folder whose lockfile holds `packages`; never asks a real registry. */
async function audit(packages: Record<string, { version: string; dev?: boolean }>) {
  const dir = await mkdtemp(join(tmpdir(), 'sitehealth-audit-'))
  dirs.push(dir)
  const lock = { name: 'x', lockfileVersion: 3, requires: true, packages: { '': { name: 'x' }, ...packages } }
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }))
  await writeFile(join(dir, 'package-lock.json'), JSON.stringify(lock))
  // an unreachable registry: npm audit fails at once, as it does where the endpoint is refused
  const env = { ...process.env, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' }
  return promisify(execFile)('node', [AUDIT], { cwd: dir, env }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      out: err.stdout + err.stderr,
    }),
  )
}

it('fails on a production package with a known critical advisory, and names it', async () => {
  const r = await audit({ 'node_modules/jsonpath-plus': { version: '10.0.7' } })
  expect(r.code).toBe(1)
  expect(r.out).toMatch(/FAIL jsonpath-plus 10\.0\.7 .*critical GHSA-hw8r-x6gr-5gjp/)
}, 60_000)

it('passes a fixed version and a dev-only vulnerable one; an unreachable audit endpoint is a notice', async () => {
  const r = await audit({
    'node_modules/jsonpath-plus': { version: '10.3.0' },
    'node_modules/dev-tool/node_modules/jsonpath-plus': { version: '9.0.0', dev: true },
  })
  expect(r.out).toMatch(/NOTICE npm audit could not reach/)
  expect(r.out).toMatch(/lockfile: 1 production packages checked/)
  expect(r.code).toBe(0)
}, 60_000)
