// @ts-check
/**
 * Benchmark 3, CLI start-up: `sitehealth --version` and `sitehealth credits --json` against a local
 * server, versus `node -e 0` and a bare Node script making the same request (built-in fetch; a
 * node:http variant is shown for information). Every command runs as a fresh process, round-robin,
 * so drift of the machine hits them all alike.
 * Target: `credits --json` within 2.5x of the bare script.
 */
import { join } from 'node:path'
import {
  CLI,
  NO_LIMITS,
  ROOT,
  fmtMs,
  fmtRatio,
  makeTempDir,
  removeTempDir,
  startServe,
  table,
  timeNode,
} from './lib.js'

const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 20)
const WARMUP = 2
const TARGET = 2.5

export async function run(log) {
  const dataDir = await makeTempDir('cli')
  const home = await makeTempDir('cli-home')
  const serve = await startServe({ dataDir, args: NO_LIMITS })
  try {
    const { key } = await serve.createKey({ user: 'bench-cli' })
    // a clean oclif config/data/cache dir: no config file, no cached state from this machine
    const env = {
      SITEHEALTH_API_URL: serve.url,
      SITEHEALTH_API_KEY: key,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CACHE_HOME: join(home, 'cache'),
      NO_COLOR: '1',
    }
    const commands = [
      { name: 'node -e 0', args: ['-e', '0'] },
      {
        name: 'bare script: fetch credits',
        args: [join(ROOT, 'bench', 'fixtures', 'bare-credits.js')],
        json: true,
      },
      {
        name: 'bare script: node:http credits (info)',
        args: [join(ROOT, 'bench', 'fixtures', 'bare-credits-http.js')],
        json: true,
      },
      { name: 'sitehealth --version', args: [CLI, '--version'] },
      { name: 'sitehealth credits --json', args: [CLI, 'credits', '--json'], json: true },
    ]
    for (const c of commands) c.samples = []
    log(`  ${ROUNDS} rounds (+${WARMUP} warm-up) of ${commands.length} commands`)
    for (let i = -WARMUP; i < ROUNDS; i++) {
      for (const c of commands) {
        const r = await timeNode(c.args, { env })
        if (r.code !== 0) throw new Error(`${c.name}: exit ${r.code}\n${r.stderr}`)
        if (c.json && typeof JSON.parse(r.stdout).credits_remaining !== 'number')
          throw new Error(`${c.name}: unexpected output ${r.stdout}`)
        if (i >= 0) c.samples.push(r.ms)
      }
    }
    const stats = Object.fromEntries(
      commands.map((c) => {
        const s = [...c.samples].sort((a, b) => a - b)
        return [c.name, { p50: s[Math.floor((s.length - 1) / 2)], min: s[0], max: s[s.length - 1] }]
      }),
    )
    const bare = stats['bare script: fetch credits'].p50
    const node0 = stats['node -e 0'].p50
    const credits = stats['sitehealth credits --json'].p50
    const version = stats['sitehealth --version'].p50
    const ratio = credits / bare
    return {
      title: '3. CLI start-up',
      text: [
        `Wall time from spawn to exit, ${ROUNDS} runs each (after ${WARMUP} warm-up rounds), round-robin; server on 127.0.0.1 (\`serve\`, same machine).`,
        '',
        table(
          ['command', 'p50', 'min', 'max', 'p50 / node -e 0', 'p50 / bare fetch script'],
          commands.map((c) => {
            const s = stats[c.name]
            return [
              c.name,
              `${fmtMs(s.p50)} ms`,
              `${fmtMs(s.min)} ms`,
              `${fmtMs(s.max)} ms`,
              fmtRatio(s.p50 / node0),
              fmtRatio(s.p50 / bare),
            ]
          }),
        ),
        '',
        `ratio \`sitehealth credits --json\` / bare fetch script: **${fmtRatio(ratio)}** (target <= ${TARGET}); \`sitehealth --version\` / \`node -e 0\`: ${fmtRatio(version / node0)}`,
      ].join('\n'),
      targets: [
        {
          name: 'CLI start-up: credits --json vs bare fetch script',
          value: fmtRatio(ratio),
          target: `<= ${TARGET}`,
          met: ratio <= TARGET,
        },
      ],
    }
  } finally {
    await serve.stop()
    await removeTempDir(dataDir)
    await removeTempDir(home)
  }
}
