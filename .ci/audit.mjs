// CI fails on a known high or critical advisory in the production dependency tree.
//  1. `npm audit --omit=dev --audit-level=high` against the registry's advisory database. Where
//     its endpoint cannot be reached (some registries and mirrors refuse it), a notice says so and
//     the step goes on: an unreachable database is not an advisory.
//  2. Always, offline: every production package in package-lock.json against .ci/advisories.json.
// Run from the project's folder (it reads ./package-lock.json).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const failures = []

function npmAudit() {
  let out
  try {
    execFileSync('npm', ['audit', '--omit=dev', '--audit-level=high', '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    })
    console.log('npm audit: no high or critical advisory in the production dependencies')
    return
  } catch (err) {
    out = err.stdout ?? ''
  }
  let report = null
  try {
    report = JSON.parse(out)
  } catch {
    // no JSON at all: npm could not ask
  }
  const counts = report?.metadata?.vulnerabilities
  if (counts) {
    const found = Object.entries(report.vulnerabilities ?? {})
      .filter(([, v]) => v.severity === 'high' || v.severity === 'critical')
      .map(([name, v]) => `${name} (${v.severity}, ${v.range})`)
    failures.push(
      `npm audit: ${found.length} production package(s) with a high or critical advisory: ${found.join(', ')}`,
    )
    return
  }
  const why = report?.message ?? report?.error?.summary ?? (out.trim().split('\n')[0] || 'no answer')
  console.log(
    `NOTICE npm audit could not reach the registry's advisory endpoint (${why}); the offline lockfile check below still runs`,
  )
}

/** 1.2.3 < 1.10.0, numerically; a prerelease counts as its release. */
function below(version, limit) {
  const a = version.split(/[.-]/).slice(0, 3).map(Number)
  const b = limit.split('.').map(Number)
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i]
  return false
}

function lockfileCheck() {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))
  const { advisories } = JSON.parse(readFileSync(new URL('advisories.json', import.meta.url), 'utf8'))
  let checked = 0
  for (const [path, pkg] of Object.entries(lock.packages ?? {})) {
    if (!path || pkg.dev || !pkg.version) continue
    checked++
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
    for (const a of advisories)
      if (a.package === name && below(pkg.version, a.below))
        failures.push(
          `${name} ${pkg.version} (${path}): ${a.severity} ${a.id}, ${a.title}; fixed in ${a.below}`,
        )
  }
  console.log(
    `lockfile: ${checked} production packages checked against ${advisories.length} known advisories`,
  )
}

npmAudit()
lockfileCheck()
if (failures.length > 0) {
  for (const f of failures) console.error(`FAIL ${f}`)
  process.exit(1)
}
