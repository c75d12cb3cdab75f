// @ts-check
/**
 * Side by side of builds on the hot path: `GET /credits` of `sitehealth serve` from each given
 * checkout (its built `dist/`), beside the bare node:http hello world, interleaved in rounds, with
 * each server's CPU time per request from /proc (Linux).
 *
 *   node bench/ab.js OLD_CHECKOUT . OLD_CHECKOUT .     (R rounds of S seconds: R=5 S=3 by default)
 *
 * Name every build more than once, in alternating places: servers listed later measured 2-3 %
 * less CPU per request than identical builds listed earlier on this machine.
 */
import { join, resolve } from 'node:path'
import autocannon from 'autocannon'
import {
  NO_LIMITS,
  PUBLIC,
  ROOT,
  makeTempDir,
  cpuMs,
  removeTempDir,
  spawnServer,
  startServe,
  stopChild,
} from './lib.js'

const ROUNDS = Number(process.env.R ?? 5)
const SECONDS = Number(process.env.S ?? 3)

async function serveFrom(root) {
  const dataDir = await makeTempDir('ab')
  const serve = await startServe({ dataDir, args: NO_LIMITS, cli: join(root, 'bin', 'run.js') })
  const { key } = await serve.createKey({ user: 'ab' })
  return {
    child: serve.child,
    dataDir,
    url: `${serve.url}${PUBLIC}/credits`,
    headers: { authorization: `Bearer ${key}` },
  }
}

const roots = process.argv.slice(2).map((r) => resolve(r))
if (roots.length === 0) roots.push(ROOT)
const bare = await spawnServer([join(ROOT, 'bench', 'fixtures', 'bare-server.js')])
const servers = [{ name: 'bare node:http', child: bare.child, url: `${bare.url}/`, headers: {} }]
for (const root of roots) servers.push({ name: root, ...(await serveFrom(root)) })
try {
  for (const s of servers) {
    await autocannon({ url: s.url, connections: 50, duration: 2, headers: s.headers })
    Object.assign(s, { requests: 0, cpu: 0, seconds: 0 })
  }
  for (let round = 0; round < ROUNDS; round++)
    for (const s of servers) {
      const before = await cpuMs(s.child.pid)
      const r = await autocannon({ url: s.url, connections: 50, duration: SECONDS, headers: s.headers })
      const after = await cpuMs(s.child.pid)
      if (r.non2xx || r.errors) throw new Error(`${s.name}: ${r.non2xx} non-2xx, ${r.errors} errors`)
      s.requests += r.requests.total
      s.cpu += after - before
      s.seconds += r.duration
    }
  const [base] = servers
  const perSec = (s) => s.requests / s.seconds
  const usPerReq = (s) => (s.cpu * 1000) / s.requests
  for (const s of servers)
    console.log(
      `${s.name}: ${Math.round(perSec(s))} req/s, ${usPerReq(s).toFixed(1)} µs CPU/req, ` +
        `vs bare ${(perSec(s) / perSec(base)).toFixed(2)}× req/s, ${(usPerReq(base) / usPerReq(s)).toFixed(2)}× by CPU`,
    )
} finally {
  for (const s of servers) {
    await stopChild(s.child)
    if (s.dataDir) await removeTempDir(s.dataDir)
  }
}
