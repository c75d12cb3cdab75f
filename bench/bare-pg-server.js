/**
 * The PostgreSQL baseline of the API benchmark: a bare node:http server that answers every request
 * with one `pg` query, the same statement sitehealth's PostgreSQL store runs for GET /credits
 * (balance minus live reservations of one user), as a small JSON body. No auth, no framework.
 * Reads BENCH_PG_URL and BENCH_PG_USER; prints its URL alone on stdout when ready.
 */
import { Buffer } from 'node:buffer'
import http from 'node:http'
import pg from 'pg'

const pool = new pg.Pool({ connectionString: process.env.BENCH_PG_URL, max: 10 })
const user = process.env.BENCH_PG_USER
const text = `SELECT greatest(0, u.credits_granted - u.credits_used - (
  SELECT count(*) FROM reservations r WHERE r.user_id = u.id AND r.expires_at > now()
)) AS n FROM users u WHERE u.id = $1`

const server = http.createServer((_req, res) => {
  pool.query({ name: 'credits', text, values: [user] }).then(
    ({ rows }) => {
      const body = JSON.stringify({ credits_remaining: Number(rows[0]?.n ?? 0), plan: null })
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
    },
    (err) => {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(err.message))
    },
  )
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`)
})
process.once('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))))
server.on('close', () => server.closeAllConnections())
