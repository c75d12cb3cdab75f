/**
 * The baseline of the API benchmark: a bare node:http hello-world server on 127.0.0.1 (random
 * port). Prints its URL alone on stdout when ready, like `sitehealth serve`.
 */
import http from 'node:http'

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' })
  res.end('hello world')
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`)
})
process.once('SIGTERM', () => server.close(() => process.exit(0)))
server.on('close', () => server.closeAllConnections())
