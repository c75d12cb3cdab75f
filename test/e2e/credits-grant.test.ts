/**
 * `credits grant --user` takes a user id or a dashboard account's email, as `keys create --user`
 * does: the built CLI against a real serve, and the admin API itself (the server resolves the email).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliRunner, expectOneLineError } from '../helpers/cli.js'
import { startServe, type Served } from '../helpers/serve.js'

let home: string
const { cli } = cliRunner(() => home)
let served: Served
const admin = () => ['--api-url', served.url, '--data-dir', served.dataDir]

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-grant-'))
  served = await startServe()
})
afterAll(async () => {
  await served?.stop()
  await rm(home, { recursive: true, force: true })
})

describe('credits grant --user EMAIL', { timeout: 120_000 }, () => {
  it("credits the account's own user, without asking, as the account's balance shows", async () => {
    const made = await cli([
      'users',
      'create',
      '--email',
      'Client@Example.com',
      '--credits',
      '10',
      '--json',
      ...admin(),
    ])
    expect(made.code, made.stderr).toBe(0)
    const { user_id } = JSON.parse(made.stdout)
    expect(user_id).toMatch(/^acct-/)

    const r = await cli([
      'credits',
      'grant',
      '--user',
      'client@example.com',
      '--amount',
      '5',
      '--json',
      ...admin(),
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ user_id, credits_remaining: 15 })

    const users = JSON.parse((await cli(['users', 'list', '--json', ...admin()])).stdout).users
    expect(users.find((u: { user_id: string }) => u.user_id === user_id).credits_remaining).toBe(15)
  })

  it('an email no account has: not found, nothing created', async () => {
    const r = await cli(['credits', 'grant', '--user', 'nobody@example.com', '--amount', '5', ...admin()])
    expectOneLineError(r, 2, /nobody@example\.com/)
    const keys = JSON.parse((await cli(['keys', 'list', '--json', ...admin()])).stdout).keys
    expect(keys).toEqual([])
  })

  it('the admin API takes the email in the path too', async () => {
    const res = await fetch(
      `${served.url}/api/admin/v1/users/${encodeURIComponent('client@example.com')}/credits`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${served.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 1 }),
      },
    )
    expect(res.status).toBe(200)
    expect((await res.json()).credits_remaining).toBe(16)
  })
})
