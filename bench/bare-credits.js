/**
 * The baseline of the CLI start-up benchmark: the same request as `sitehealth credits --json`,
 * written as a bare Node script with the built-in fetch. Reads SITEHEALTH_API_URL and
 * SITEHEALTH_API_KEY, prints the JSON body.
 */
/* global fetch */
const res = await fetch(`${process.env.SITEHEALTH_API_URL}/api/public/v1/credits`, {
  headers: { authorization: `Bearer ${process.env.SITEHEALTH_API_KEY}` },
})
const body = await res.json()
process.stdout.write(`${JSON.stringify(body, null, 2)}\n`)
if (!res.ok) process.exitCode = 1
