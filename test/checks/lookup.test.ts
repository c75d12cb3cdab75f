import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { LookupAddress, LookupOptions } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Agent, fetch, request } from 'undici'
import { createGuardedLookup, isBlockedLookupError } from '../../src/checks/guard.js'

type Answer = { address: string; family: 4 | 6 }

const stub =
  (table: Record<string, Answer[]>, delayMs = 0) =>
  async (hostname: string): Promise<Answer[]> => {
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs))
    const answers = table[hostname]
    if (!answers) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    }
    return answers
  }

interface Outcome {
  err: (NodeJS.ErrnoException & { hostname?: string }) | null
  address: string | LookupAddress[]
  family?: number
}

/** Calls a lookup the way net does and settles with what the callback got (bounded in time). */
function call(lookup: LookupFunction, hostname: string, options: LookupOptions): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('lookup never called back')), 2000)
    lookup(hostname, options, (err, address, family) => {
      clearTimeout(timer)
      resolve({ err, address, family })
    })
  })
}

const MIXED = {
  'mixed.test': [
    { address: '93.184.215.14', family: 4 as const },
    { address: '10.0.0.5', family: 4 as const },
  ],
}
const PUBLIC = {
  'public.test': [
    { address: '93.184.215.14', family: 4 as const },
    { address: '2606:4700:4700::1111', family: 6 as const },
  ],
}

describe('createGuardedLookup', () => {
  it('refuses the whole answer when one address is private (all: true)', async () => {
    const lookup = createGuardedLookup({ resolver: stub(MIXED) })
    const { err, address } = await call(lookup, 'mixed.test', { all: true })
    expect(err?.code).toBe('SITEHEALTH_BLOCKED')
    expect(err?.message).toMatch(/mixed\.test resolves to 10\.0\.0\.5, a private address/)
    expect(isBlockedLookupError(err)).toBe(true)
    expect(address).toEqual([])
  })

  it('refuses the whole answer when one address is private (single address)', async () => {
    const lookup = createGuardedLookup({ resolver: stub(MIXED) })
    for (const options of [{}, { family: 4 }, { family: 0, hints: 0 }] as LookupOptions[]) {
      const { err } = await call(lookup, 'mixed.test', options)
      expect(err?.code).toBe('SITEHEALTH_BLOCKED')
      expect(isBlockedLookupError(err)).toBe(true)
    }
  })

  it('refuses even when the private address is of a family the caller did not ask for', async () => {
    const lookup = createGuardedLookup({
      resolver: stub({
        'dual.test': [
          { address: '93.184.215.14', family: 4 },
          { address: 'fd00::1', family: 6 },
        ],
      }),
    })
    const { err } = await call(lookup, 'dual.test', { family: 4 })
    expect(err?.code).toBe('SITEHEALTH_BLOCKED')
  })

  it('refuses answers that are not IP addresses at all', async () => {
    const lookup = createGuardedLookup({
      resolver: stub({ 'odd.test': [{ address: 'not-an-ip', family: 4 }] }),
    })
    const { err } = await call(lookup, 'odd.test', { all: true })
    expect(err?.code).toBe('SITEHEALTH_BLOCKED')
  })

  it('refuses localhost names without asking DNS', async () => {
    let asked = 0
    const lookup = createGuardedLookup({
      resolver: async () => {
        asked++
        return [{ address: '93.184.215.14', family: 4 }]
      },
    })
    for (const host of ['localhost', 'LOCALHOST.', 'api.localhost']) {
      const { err } = await call(lookup, host, { all: true })
      expect(err?.code).toBe('SITEHEALTH_BLOCKED')
    }
    expect(asked).toBe(0)
  })

  it('passes an all-public answer, every address with all: true', async () => {
    const lookup = createGuardedLookup({ resolver: stub(PUBLIC) })
    const { err, address } = await call(lookup, 'public.test', { all: true })
    expect(err).toBeNull()
    expect(address).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ])
  })

  it('passes an all-public answer as (address, family) without all', async () => {
    const lookup = createGuardedLookup({ resolver: stub(PUBLIC) })
    expect(await call(lookup, 'public.test', {})).toEqual({ err: null, address: '93.184.215.14', family: 4 })
    expect(await call(lookup, 'public.test', { family: 6 })).toEqual({
      err: null,
      address: '2606:4700:4700::1111',
      family: 6,
    })
    const v6only = await call(lookup, 'public.test', { family: 6, all: true })
    expect(v6only.address).toEqual([{ address: '2606:4700:4700::1111', family: 6 }])
  })

  it('reports how long DNS took', async () => {
    const seen: { hostname: string; addresses: string[]; ms: number }[] = []
    const lookup = createGuardedLookup({ resolver: stub(PUBLIC, 30), onLookup: (i) => seen.push(i) })
    await call(lookup, 'public.test', { all: true })
    expect(seen).toHaveLength(1)
    expect(seen[0].hostname).toBe('public.test')
    expect(seen[0].addresses).toEqual(['93.184.215.14', '2606:4700:4700::1111'])
    expect(seen[0].ms).toBeGreaterThanOrEqual(25)
    expect(seen[0].ms).toBeLessThan(2000)
  })

  it('reports timing for refused answers too, and survives a throwing observer', async () => {
    const seen: string[][] = []
    const lookup = createGuardedLookup({
      resolver: stub(MIXED),
      onLookup: (i) => {
        seen.push(i.addresses)
        throw new Error('observer bug')
      },
    })
    const { err } = await call(lookup, 'mixed.test', { all: true })
    expect(err?.code).toBe('SITEHEALTH_BLOCKED')
    expect(seen).toEqual([['93.184.215.14', '10.0.0.5']])
  })

  it('passes private answers when private targets are allowed', async () => {
    const lookup = createGuardedLookup({ resolver: stub(MIXED), allowPrivateTargets: true })
    const { err, address } = await call(lookup, 'mixed.test', { all: true })
    expect(err).toBeNull()
    expect(address).toHaveLength(2)
  })

  it('hands DNS failures through untouched, and an empty answer is ENOTFOUND', async () => {
    const lookup = createGuardedLookup({ resolver: stub({ 'empty.test': [] }) })
    const missing = await call(lookup, 'nowhere.test', { all: true })
    expect(missing.err?.code).toBe('ENOTFOUND')
    expect(isBlockedLookupError(missing.err)).toBe(false)
    const empty = await call(lookup, 'empty.test', {})
    expect(empty.err?.code).toBe('ENOTFOUND')
  })
})

describe('isBlockedLookupError', () => {
  const blocked = Object.assign(new Error('Blocked for safety: x'), { code: 'SITEHEALTH_BLOCKED' })

  it('finds the refusal in cause chains and aggregates', () => {
    expect(isBlockedLookupError(blocked)).toBe(true)
    expect(isBlockedLookupError(new TypeError('fetch failed', { cause: blocked }))).toBe(true)
    expect(isBlockedLookupError(new Error('a', { cause: new Error('b', { cause: blocked }) }))).toBe(true)
    expect(isBlockedLookupError(new AggregateError([new Error('other'), blocked]))).toBe(true)
  })

  it('is false for anything else, cycles included', () => {
    expect(isBlockedLookupError(null)).toBe(false)
    expect(isBlockedLookupError('SITEHEALTH_BLOCKED')).toBe(false)
    expect(isBlockedLookupError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false)
    const a = new Error('a') as Error & { cause?: unknown }
    const b = new Error('b', { cause: a })
    a.cause = b
    expect(isBlockedLookupError(a)).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------------
// Through a real undici Agent to a loopback server whose name resolves via the stub.

describe('guarded lookup inside an undici Agent', () => {
  let server: Server
  let port: number
  const resolver = stub({ 'target.test': [{ address: '127.0.0.1', family: 4 }] })

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('served'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  const agent = (allowPrivateTargets: boolean, autoSelectFamily: boolean) =>
    new Agent({
      connect: {
        lookup: createGuardedLookup({ allowPrivateTargets, resolver }),
        autoSelectFamily,
        timeout: 2000,
      },
      headersTimeout: 2000,
      bodyTimeout: 2000,
    })

  for (const autoSelectFamily of [true, false]) {
    describe(`autoSelectFamily: ${autoSelectFamily}`, () => {
      it('refuses a name that resolves to loopback', { timeout: 5000 }, async () => {
        const dispatcher = agent(false, autoSelectFamily)
        try {
          const err = await request(`http://target.test:${port}/`, {
            dispatcher,
            signal: AbortSignal.timeout(3000),
          }).then(
            () => null,
            (e: unknown) => e,
          )
          expect(err).not.toBeNull()
          expect(isBlockedLookupError(err)).toBe(true)

          const fetchErr = await fetch(`http://target.test:${port}/`, {
            dispatcher,
            signal: AbortSignal.timeout(3000),
          }).then(
            () => null,
            (e: unknown) => e,
          )
          expect(fetchErr).toBeInstanceOf(TypeError)
          expect(isBlockedLookupError(fetchErr)).toBe(true)
        } finally {
          await dispatcher.destroy()
        }
      })

      it('is served when private targets are allowed', { timeout: 5000 }, async () => {
        const dispatcher = agent(true, autoSelectFamily)
        try {
          const res = await request(`http://target.test:${port}/`, {
            dispatcher,
            signal: AbortSignal.timeout(3000),
          })
          expect(res.statusCode).toBe(200)
          expect(await res.body.text()).toBe('served')
        } finally {
          await dispatcher.destroy()
        }
      })
    })
  }
})
