/**
 * The target farm of bench/monitors.js, in its own process so its work does not count against
 * the server: `count` small HTML sites on 127.0.0.1, each answering every path. Prints their
 * URLs as one JSON line.
 *
 *   node bench/monitors-farm.js <count>
 */
import { once } from 'node:events'
import { Buffer } from 'node:buffer'
import http from 'node:http'

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Farm</title></head><body><h1>Farm</h1>${'<p>A loopback target of the monitor benchmark.</p>'.repeat(40)}</body></html>`
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=()',
  'cache-control': 'no-cache',
  'content-length': Buffer.byteLength(PAGE),
}
const count = Number(process.argv[2] ?? 16)
const urls = []
for (let i = 0; i < count; i++) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, HEADERS)
    res.end(PAGE)
  })
  server.keepAliveTimeout = 1000
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  urls.push(`http://127.0.0.1:${server.address().port}`)
}
process.stdout.write(JSON.stringify(urls) + '\n')
process.once('SIGTERM', () => process.exit(0))
