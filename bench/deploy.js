// @ts-check
/**
 * Monitors as code at scale: `sitehealth deploy` of one file holding N monitors (default 1,000)
 * against a local serve (embedded store, rate limits out of the way), measured as three fresh CLI
 * processes: the plan alone (`--dry-run`, nothing exists yet), the plan and its apply, and a no-op
 * re-deploy of the same file (target: under 5 s). Each monitor's first run starts when it is
 * created, against one local target, so the apply also carries those checks.
 *
 *   node bench/deploy.js [--monitors 1000]
 *
 * Needs a build (`npm run build`).
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import {
  CLI,
  NO_LIMITS,
  cleanup,
  fmtInt,
  makeTempDir,
  startServe,
  startTarget,
  table,
  timeNode,
} from './lib.js'

const { values: o } = parseArgs({ options: { monitors: { type: 'string', default: '1000' } } })
const N = Number(o.monitors)

try {
  const target = await startTarget()
  const dataDir = await makeTempDir('deploy')
  const home = await makeTempDir('deploy-home')
  const serve = await startServe({ dataDir, args: NO_LIMITS })
  const { key } = await serve.createKey({ user: 'bench-deploy', credits: 10 * N })
  const file = join(home, 'sitehealth.yaml')
  const lines = ['monitors:']
  for (let i = 0; i < N; i++) {
    const ref = `m${String(i).padStart(5, '0')}`
    lines.push(`  - { ref: ${ref}, name: "Site ${i}", url: "${target.url}${ref}", every: 24h }`)
  }
  await writeFile(file, lines.join('\n') + '\n')
  const env = {
    SITEHEALTH_API_URL: serve.url,
    SITEHEALTH_API_KEY: key,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    NO_COLOR: '1',
  }
  const step = async (label, args) => {
    const r = await timeNode([CLI, 'deploy', '--file', file, ...args], { env })
    if (r.code !== 0) throw new Error(`${label}: exit ${r.code}\n${r.stderr}`)
    return { label, ms: r.ms, out: r.stdout }
  }
  const plan = await step('plan only (--dry-run), empty account', ['--dry-run'])
  const apply = await step(`plan and apply: ${fmtInt(N)} creates`, ['--yes'])
  const noop = await step('no-op re-deploy of the same file', ['--yes'])
  if (!noop.out.includes('No changes'))
    throw new Error(`the re-deploy was not a no-op:\n${noop.out.slice(0, 400)}`)
  console.log(`## deploy of ${fmtInt(N)} monitors from one file (embedded store, rate limits off)\n`)
  console.log(
    table(
      ['step', 'wall time', 'per monitor'],
      [plan, apply, noop].map((s) => [
        s.label,
        `${(s.ms / 1000).toFixed(2)} s`,
        `${(s.ms / N).toFixed(2)} ms`,
      ]),
    ),
  )
  console.log(`\nTarget: the no-op re-deploy under 5 s — ${noop.ms < 5000 ? 'met' : 'not met'}.`)
} finally {
  await cleanup()
}
