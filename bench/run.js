// @ts-check
/**
 * `npm run bench`: runs the benchmarks in sequence and prints their tables and the targets.
 *
 *   node bench/run.js                 all of them (api, store, cli, check)
 *   node bench/run.js store cli       some of them
 *   node bench/run.js --md FILE ...   also write the tables as markdown to FILE
 *
 * Imports the built code (dist/): run `npm run build` first. Every spawned `serve` and every
 * temporary directory is cleaned up at the end, also after an error or Ctrl-C.
 */
import { writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { performance } from 'node:perf_hooks'
import { cleanup, table } from './lib.js'

const BENCHES = {
  api: () => import('./api.js'),
  store: () => import('./store.js'),
  cli: () => import('./cli.js'),
  check: () => import('./check.js'),
  tls: () => import('./tls-scan.js'),
  pg: () => import('./pg.js'),
}

function parseArgs(argv) {
  const names = []
  let md
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--md') md = argv[++i]
    else if (argv[i] === '--help' || argv[i] === '-h') {
      process.stdout.write(`usage: node bench/run.js [--md FILE] [${Object.keys(BENCHES).join('|')}]...\n`)
      process.exit(0)
    } else if (argv[i] in BENCHES) names.push(argv[i])
    else throw new Error(`unknown benchmark ${argv[i]} (one of: ${Object.keys(BENCHES).join(', ')})`)
  }
  return { names: names.length ? names : Object.keys(BENCHES), md }
}

function machine() {
  const cpu = cpus()
  return [
    `node ${process.version}, ${process.platform}-${process.arch}`,
    `${cpu.length} CPUs: ${cpu[0]?.model ?? 'unknown'}`,
    `${(totalmem() / 1024 ** 3).toFixed(1)} GiB memory`,
  ].join('; ')
}

async function main() {
  const { names, md } = parseArgs(process.argv.slice(2))
  const log = (line) => process.stderr.write(`${line}\n`)
  const results = []
  const started = performance.now()
  log(`machine: ${machine()}`)
  for (const name of names) {
    const t0 = performance.now()
    log(`\n== ${name}`)
    const mod = await BENCHES[name]()
    const result = await mod.run(log)
    result.seconds = (performance.now() - t0) / 1000
    results.push(result)
    process.stdout.write(`\n## ${result.title}\n\n${result.text}\n`)
    log(`  (${result.seconds.toFixed(0)} s)`)
  }
  const targets = results.flatMap((r) => r.targets)
  const summary = table(
    ['target', 'measured', 'wanted', 'met'],
    targets.map((t) => [t.name, t.value, t.target, t.met ? 'yes' : 'NO']),
  )
  const total = (performance.now() - started) / 1000
  process.stdout.write(`\n## Targets\n\n${summary}\n\ntotal ${total.toFixed(0)} s\n`)
  if (md) {
    const body = [
      `Machine: ${machine()}`,
      `Run: ${new Date().toISOString()}, ${total.toFixed(0)} s`,
      ...results.map((r) => `## ${r.title}\n\n${r.text}`),
      `## Targets\n\n${summary}`,
    ].join('\n\n')
    await writeFile(md, `${body}\n`)
  }
}

let exiting = false
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    if (exiting) return
    exiting = true
    process.stderr.write(`\n${signal}: cleaning up...\n`)
    cleanup().finally(() => process.exit(130))
  })

try {
  await main()
} catch (err) {
  process.exitCode = 1
  process.stderr.write(`bench failed: ${err?.stack ?? err}\n`)
} finally {
  await cleanup()
}
