/**
 * What a check of an ordinary page must not spend CPU on (issue 23, a monitor run's cost): no
 * Error or DOMException made on its normal path. Plain `AbortController.abort()` makes a
 * DOMException (its stack captured) each time, AbortSignal.timeout fires one after every check
 * once its time is up, and an undici Agent destroyed without a reason makes a ClientDestroyedError.
 */
import http from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { Agent } from 'undici'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { probe } from '../../src/checks/probe.js'

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain</title></head><body>${'<p>text</p>'.repeat(20)}</body></html>`

let server: http.Server
let url: URL

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(req.method === 'OPTIONS' ? '' : PAGE)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe('a check of a plain page', () => {
  it('arms no AbortSignal.timeout, aborts with reasons only, destroys its agent with a reason', async () => {
    const timeouts = vi.spyOn(AbortSignal, 'timeout')
    const aborts = vi.spyOn(AbortController.prototype, 'abort')
    const destroys = vi.spyOn(Agent.prototype, 'destroy')
    try {
      const r = await probe(url, { allowPrivateTargets: true })
      expect(r.response.status).toBe(200)
      expect(r.cors?.answered).toBe(true)
      // the port pairs with no other scheme: no companion request, no agent made for it
      expect(r.alternate?.attempted).toBe(false)
      expect(timeouts).not.toHaveBeenCalled()
      expect(aborts.mock.calls.length).toBeGreaterThan(0)
      for (const args of aborts.mock.calls) expect(args[0]).toBeDefined()
      // one agent (undici's destroy calls itself once more with its callback)
      expect(new Set(destroys.mock.contexts).size).toBe(1)
      for (const args of destroys.mock.calls as unknown[][]) expect(args[0]).toBeInstanceOf(Error)
    } finally {
      timeouts.mockRestore()
      aborts.mockRestore()
      destroys.mockRestore()
    }
  })
})
