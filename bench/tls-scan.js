// @ts-check
/**
 * Benchmark 5, the TLS scan's cost: a probe of a local https target with the scan's four extra
 * handshakes (TLS 1.0, TLS 1.1, NULL, anonymous, in parallel with the main request) versus the
 * same probe without them, round-robin so drift of the machine hits both alike. Two targets: a
 * modern server (every extra handshake refused, the common case) and one that also accepts TLS
 * 1.0/1.1 (two extra handshakes complete). Loopback, so this is the scan's own cost (CPU for the
 * handshakes and the wait for the slowest one), not network latency, which a real site adds once
 * (the handshakes run in parallel with the main request's own).
 */
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { probe } from '../dist/checks/index.js'
import { fmtMs, makeTempDir, onCleanup, removeTempDir, stopChild, summarize, table } from './lib.js'

const ROUNDS = Number(process.env.BENCH_TLS_ROUNDS ?? 30)
const WARMUP = 5
/** Our own line: the scan must not be noticeable beside a real site's round trips (tens of ms each). */
const TARGET_ADDED_MS = 50

/**
 * The target runs in a child process, as a real server runs on another machine: its handshake work
 * must not be billed to the probe's event loop.
 */
async function target(certPath, keyPath, options) {
  const script = `
    import https from 'node:https'
    import { readFileSync } from 'node:fs'
    const server = https.createServer(
      { cert: readFileSync(${JSON.stringify(certPath)}), key: readFileSync(${JSON.stringify(keyPath)}), ...${JSON.stringify(options)} },
      (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>ok</title>'),
    )
    server.on('tlsClientError', () => {})
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'))
  `
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const close = () => stopChild(child)
  onCleanup(close)
  const [line] = await once(child.stdout, 'data')
  return { url: `https://127.0.0.1:${Number(String(line).trim())}/`, close }
}

export async function run() {
  const dir = await makeTempDir('tls-bench')
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'k.pem'),
        '-out',
        join(dir, 'c.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    )
    const cert = readFileSync(join(dir, 'c.pem'), 'utf8')
    const targets = {
      modern: await target(join(dir, 'c.pem'), join(dir, 'k.pem'), {}),
      'also TLS 1.0/1.1': await target(join(dir, 'c.pem'), join(dir, 'k.pem'), {
        minVersion: 'TLSv1',
        ciphers: 'DEFAULT:@SECLEVEL=0',
      }),
    }
    const rows = []
    const results = {}
    for (const [name, t] of Object.entries(targets)) {
      const samples = { off: [], on: [] }
      for (let i = 0; i < WARMUP + ROUNDS; i++) {
        for (const mode of i % 2 ? ['on', 'off'] : ['off', 'on']) {
          const start = performance.now()
          await probe(new URL(t.url), { allowPrivateTargets: true, extraCA: cert, tlsScan: mode === 'on' })
          if (i >= WARMUP) samples[mode].push(performance.now() - start)
        }
      }
      const off = summarize(samples.off)
      const on = summarize(samples.on)
      results[name] = { off, on, addedP50: on.p50 - off.p50 }
      rows.push([name, fmtMs(off.p50), fmtMs(on.p50), fmtMs(on.p50 - off.p50), fmtMs(off.p90), fmtMs(on.p90)])
      await t.close()
    }
    const out = table(
      [
        'target (loopback)',
        'probe p50 ms, no scan',
        'probe p50 ms, with scan',
        'added p50 ms',
        'p90 no scan',
        'p90 with scan',
      ],
      rows,
    )
    const worst = Math.max(...Object.values(results).map((r) => r.addedP50))
    return {
      title: `TLS scan cost (${ROUNDS} rounds each, round-robin)`,
      text: out,
      results,
      targets: [
        {
          name: 'TLS scan: added p50 wall time of a loopback probe',
          value: `${fmtMs(worst)} ms`,
          target: `< ${TARGET_ADDED_MS} ms`,
          met: worst < TARGET_ADDED_MS,
        },
      ],
    }
  } finally {
    await removeTempDir(dir)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run()
  process.stdout.write(`${r.title}\n${r.text}\n`)
}
