/**
 * For the API benchmark's breakdown: the framework alone. An h3 app served through h3/node's
 * toNodeHandler on node:http (as `serve` does), one GET route answering a small
 * JSON object the size of the credits body, no hooks, no auth. Prints its URL alone on stdout.
 */
import http from 'node:http'
import { H3 } from 'h3'
import { toNodeHandler } from 'h3/node'

const app = new H3()
app.get('/', () => ({
  credits_remaining: 100,
  plan: null,
  usage_note:
    'Each successful saved check costs 1 credit. Invalid or blocked URLs, failed checks and requests without enough credits cost nothing.',
}))
const server = http.createServer(toNodeHandler(app))
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`)
})
process.once('SIGTERM', () => server.close(() => process.exit(0)))
server.on('close', () => server.closeAllConnections())
