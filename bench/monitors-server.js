/**
 * The server under test of bench/monitors.js, in its own process: `startServer` from the build
 * (what `sitehealth serve` runs), plus an IPC channel on which the benchmark asks for the
 * scheduler's lags, the store's write counts (embedded store only), the process's CPU time and
 * its memory.
 *
 *   node bench/monitors-server.js <dataDir> <minIntervalSeconds> <historyLimit> [databaseUrl]
 */
import { startServer } from '../dist/serve/index.js'

const [dataDir, minInterval = '60', history = '100', databaseUrl] = process.argv.slice(2)
const server = await startServer({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  databaseUrl,
  allowPrivateTargets: true,
  initialCredits: 0,
  limits: { runLimit: 1e9, runWindowSec: 1, apiLimit: 1e9, apiWindowSec: 1 },
  adminToken: 'bench-admin-token-0123456789abcdef0123456789',
  monitors: { minInterval: Number(minInterval), historyLimit: Number(history), catchUpMs: 1000 },
})
process.stdout.write(`${server.url}\n`)

process.on('message', (msg) => {
  if (msg === 'stats') {
    const s = server.monitoring.scheduler.stats
    const lags = s.lags.splice(0)
    const cpu = process.cpuUsage()
    process.send({
      lags,
      started: s.started,
      running: s.running,
      // the embedded store's counters; PostgreSQL has none of these
      writes: server.store.stats?.writes ?? null,
      journalSyncs: server.store.monitors.journalStats?.syncs ?? null,
      journalLines: server.store.monitors.journalStats?.lines ?? null,
      cpuMs: (cpu.user + cpu.system) / 1000,
      memory: process.memoryUsage(),
    })
  }
})
process.once('SIGTERM', () => server.close().then(() => process.exit(0)))
