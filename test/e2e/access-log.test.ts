/**
 * The access log of a real `serve` (on by default) holds no secret (issue 31): a heartbeat push
 * and an invite link are logged with their tokens redacted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { callApi, waitFor } from '../helpers/api.js'
import { startServe, type Served } from '../helpers/serve.js'

let served: Served

beforeAll(async () => {
  served = await startServe()
}, 120_000)
afterAll(async () => served?.stop())

it('logs pushes and invite links with their tokens redacted', async () => {
  const { key } = await served.createKey({ user: 'logs', credits: 0 })
  const created = await callApi(served.url, key, 'POST', '/monitors', {
    type: 'heartbeat',
    interval_seconds: 60,
  })
  expect(created.status).toBe(201)
  const pushUrl: string = created.body.push_url
  const token = pushUrl.split('/').at(-1)!
  expect((await fetch(`${pushUrl}?status=up`)).status).toBe(200)
  const invite = 'Yk8-2mQv9TzL4pRc7nWd0sQ'
  await fetch(`${served.url}/invite/${invite}`)
  await waitFor(async () => served.output().includes('/invite/'), 5_000, 'the access log lines')
  const log = served.output()
  expect(log).toMatch(/GET \/api\/push\/\[redacted\] 200 /)
  expect(log).toMatch(/GET \/invite\/\[redacted\] \d{3} /)
  expect(log).not.toContain(token)
  expect(log).not.toContain(token.slice(35))
  expect(log).not.toContain(invite)
})
