// @ts-check
// An incident update sent to 10,000 email subscribers of a status page (docs/status-pages.md):
// the time from the update's API answer to the last mail accepted by a local SMTP server (in a
// process of its own), and GET /api/public/v1/health meanwhile (p50, p99, max), beside the same
// /health measured for a few seconds before. serve runs in this process on the built code
// (dist/), on the embedded store, with --smtp-url pointing at the sink; the subscribers are
// written straight to the store (as if 10,000 had followed their confirmation link).
//
//   npm run build && flock /tmp/bench.lock node bench/status-subscribers.js [--subscribers 10000]
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { fetch } from 'undici'
import { startServer } from '../dist/serve/index.js'
import { displayPrefix, generateApiKey, hashKey } from '../dist/contract/api-key.js'
import { nextId } from '../dist/monitors/ids.js'
import { cleanup, makeTempDir, summarize } from './lib.js'

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : dflt
}
const N = arg('--subscribers', 10_000)
const HEALTH_CLIENTS = 4

/** GET /health in a closed loop with a few clients until `stop()`; the latencies, ms. */
function probeHealth(base) {
  const samples = []
  let running = true
  const loop = async () => {
    while (running) {
      const t0 = performance.now()
      const res = await fetch(`${base}/api/public/v1/health`)
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`/health answered ${res.status}`)
      samples.push(performance.now() - t0)
      await sleep(5)
    }
  }
  const loops = Array.from({ length: HEALTH_CLIENTS }, loop)
  return {
    async stop() {
      running = false
      await Promise.all(loops)
      return samples
    },
  }
}

async function main() {
  const sink = fork(fileURLToPath(new URL('./fixtures/smtp-sink.js', import.meta.url)), [], {
    stdio: 'inherit',
  })
  const [{ port }] = /** @type {[{port: number}]} */ (await once(sink, 'message'))
  const ask = async () => {
    sink.send('count')
    const [m] = await once(sink, 'message')
    return /** @type {{count: number, lastAt: number}} */ (m)
  }
  const dataDir = await makeTempDir('status-subs')
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    allowPrivateTargets: true,
    limits: { runLimit: 1000, runWindowSec: 60, apiLimit: 100_000, apiWindowSec: 60 },
    monitors: { smtpUrl: `smtp://127.0.0.1:${port}`, smtpFrom: 'status@bench.test' },
    warn: () => {},
  })
  try {
    const store = server.store
    await store.users.ensure('bench', 10)
    const key = generateApiKey()
    await store.keys.create({
      id: randomUUID(),
      name: 'bench',
      user_id: 'bench',
      prefix: displayPrefix(key),
      hash: hashKey(key),
      created_at: new Date().toISOString(),
      last_used_at: null,
      revoked_at: null,
    })
    const call = async (method, path, body) => {
      const res = await fetch(`${server.url}/api/public/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      })
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
      return /** @type {Promise<any>} */ (res.json())
    }
    // the incident is posted before anyone subscribes: the update is what reaches the 10,000
    const page = await call('POST', '/status-pages', {
      slug: 'bench',
      title: 'Bench status',
      monitor_ids: [],
    })
    const incident = await call('POST', `/status-pages/${page.id}/incidents`, {
      title: 'Checkout errors',
      message: 'Payments fail.',
      impact: 'major',
    })
    const at = new Date().toISOString()
    await store.statusSubscribers.addSubscribers(
      Array.from({ length: N }, (_, i) => ({
        id: nextId(),
        page_id: page.id,
        type: /** @type {const} */ ('email'),
        target: `reader${i}@bench.test`,
        secret_sealed: null,
        created_at: at,
      })),
    )
    process.stderr.write(`${N} subscribers; /health alone for 3 s\n`)
    const before = probeHealth(server.url)
    await sleep(3000)
    const idle = summarize(await before.stop())

    const during = probeHealth(server.url)
    const load = loadavg()[0]
    const t0 = Date.now()
    const tp = performance.now()
    await call('POST', `/status-pages/${page.id}/incidents/${incident.id}/updates`, {
      status: 'identified',
      message: 'A bad deploy; rolling back.',
    })
    const answered = performance.now() - tp
    let seen = await ask()
    while (seen.count < N) {
      await sleep(200)
      seen = await ask()
      if (Date.now() - t0 > 30 * 60_000) throw new Error(`only ${seen.count} mails after 30 min`)
    }
    const busy = summarize(await during.stop())
    const seconds = (seen.lastAt - t0) / 1000
    const f = (x) => x.toFixed(1)
    const out = [
      `subscribers: ${N}; load average at the start: ${load.toFixed(2)}`,
      `API answer to the update: ${f(answered)} ms`,
      `last mail accepted after: ${seconds.toFixed(1)} s (${Math.round(N / seconds)} mails/s)`,
      `/health alone:      n ${idle.n}, p50 ${f(idle.p50)} ms, p99 ${f(idle.p99)} ms, max ${f(idle.max)} ms`,
      `/health meanwhile:  n ${busy.n}, p50 ${f(busy.p50)} ms, p99 ${f(busy.p99)} ms, max ${f(busy.max)} ms`,
    ]
    process.stdout.write(out.join('\n') + '\n')
  } finally {
    await server.close(1000)
    sink.send('stop')
    await cleanup()
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`)
  process.exit(1)
})
