// A check that asks for the lab names its account to it, so the lab can share its browsers fairly
// between accounts (src/lab/fair-share.ts): a real check of a loopback page, a fake lab.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CheckCapacity } from '../../src/capacity/index.js'
import type { LabOutcome, LabRunner } from '../../src/checks/lab-outcome.js'
import { runForUser } from '../../src/runs/index.js'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import { removeDir, tempDir } from '../store/helpers.js'

let dir: string
let store: LowdbStore
let site: Server
let url: string
beforeAll(async () => {
  dir = await tempDir()
  store = await openLowdbStore(dir)
  site = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>x</title><h1>x</h1>'),
  )
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', () => resolve()))
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`
})
afterAll(async () => {
  site.closeAllConnections()
  await new Promise((resolve) => site.close(resolve))
  await store.close()
  await removeDir(dir)
})

it("hands the lab the check's account", async () => {
  const owners: Array<string | undefined> = []
  const lab: LabRunner = {
    async measure(_url, owner): Promise<LabOutcome> {
      owners.push(owner)
      return { method: 'estimate', fallback: 'busy', reason: 'a fake lab', durationMs: 0, queuedMs: 0 }
    },
  }
  await store.users.ensure('ada', 3)
  const deps = {
    store,
    capacity: new CheckCapacity({ maxConcurrent: 4, maxPerUser: 2 }),
    allowPrivateTargets: true,
    checkTimeoutMs: 15_000,
    lab,
  }
  const done = await runForUser(deps, 'ada', url, { pagespeed: 'lab' })
  expect(owners).toEqual(['ada'])
  expect(done.report.signals.pagespeed.message).toContain('the lab browser was busy')
})
