/**
 * A lower bound for the CLI start-up benchmark: the same request as `sitehealth credits --json`
 * with node:http only (no fetch, no undici). Reads SITEHEALTH_API_URL and SITEHEALTH_API_KEY.
 */
import http from 'node:http'

const req = http.get(
  `${process.env.SITEHEALTH_API_URL}/api/public/v1/credits`,
  { headers: { authorization: `Bearer ${process.env.SITEHEALTH_API_KEY}` } },
  (res) => {
    let text = ''
    res.setEncoding('utf8')
    res.on('data', (d) => (text += d))
    res.on('end', () => {
      process.stdout.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`)
      if (res.statusCode !== 200) process.exitCode = 1
    })
  },
)
req.on('error', (err) => {
  process.stderr.write(`${err.message}\n`)
  process.exitCode = 1
})
