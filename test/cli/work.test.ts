/** The commands' work functions with fake clients: URL lists, the check runner, paging, admin token. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/client/client.js'
import { isLoopbackUrl, resolveAdminToken } from '../../src/cli/admin-token.js'
import { belowThreshold, runChecks } from '../../src/cli/check-runner.js'
import { UsageError } from '../../src/cli/errors.js'
import { fetchRecent } from '../../src/cli/recent-pages.js'
import { collectUrls, parseUrlList } from '../../src/cli/url-list.js'
import type { RecentChecks } from '../../src/contract/index.js'
import { recentPage, runResult } from './fixtures.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitehealth-cli-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('URL lists', () => {
  it('skips blank lines and # comments, trims, keeps order', () => {
    expect(
      parseUrlList('https://a.example\n\n  # staging\n  https://b.example  \r\n#x\nhttps://c.example'),
    ).toEqual(['https://a.example', 'https://b.example', 'https://c.example'])
  })
  it('reads arguments first, then the file; `-` is stdin', async () => {
    const file = join(dir, 'urls.txt')
    await writeFile(file, '# list\nhttps://b.example\n')
    expect(await collectUrls(['https://a.example'], file)).toEqual(['https://a.example', 'https://b.example'])
    expect(await collectUrls([], '-', Readable.from(['https://s.example\n', '\nhttps://t.example']))).toEqual(
      ['https://s.example', 'https://t.example'],
    )
  })
  it('refuses no URL at all and an unreadable file as usage errors', async () => {
    await expect(collectUrls([], undefined)).rejects.toBeInstanceOf(UsageError)
    await expect(collectUrls([], join(dir, 'nope.txt'))).rejects.toThrow(/Cannot read --file/)
    const empty = join(dir, 'empty.txt')
    await writeFile(empty, '# nothing\n\n')
    await expect(collectUrls([], empty)).rejects.toThrow(/No URL in --file/)
  })
})

describe('runChecks', () => {
  const fake = (fail: Record<string, ApiError>) => ({
    calls: [] as string[],
    async runCheck(url: string) {
      this.calls.push(url)
      if (fail[url]) throw fail[url]
      return runResult({ url, score: url.includes('low') ? 40 : 90 })
    },
  })

  it('runs in order and goes on after a per-URL failure', async () => {
    const client = fake({ 'bad:': new ApiError(400, 'invalid_url', 'bad') })
    const seen: number[] = []
    const out = await runChecks(client, ['https://a', 'bad:', 'https://low'], {
      onOutcome: (_o, i) => seen.push(i),
    })
    expect(client.calls).toEqual(['https://a', 'bad:', 'https://low'])
    expect(seen).toEqual([0, 1, 2])
    expect(out.map((o) => (o.error ? o.error.code : o.result.data.healthScore))).toEqual([
      90,
      'invalid_url',
      40,
    ])
    expect(belowThreshold(out, 50)).toEqual([{ url: 'https://low', score: 40 }])
  })

  it.each(['insufficient_credits', 'invalid_api_key', 'revoked_api_key', 'rate_limited', 'network_error'])(
    'stops at %s: every later URL would fail the same way',
    async (code) => {
      const client = fake({ 'https://b': new ApiError(code === 'network_error' ? 0 : 402, code, 'x') })
      const out = await runChecks(client, ['https://a', 'https://b', 'https://c'])
      expect(client.calls).toEqual(['https://a', 'https://b'])
      expect(out).toHaveLength(2)
    },
  )

  it('lets non-API errors through', async () => {
    const client = {
      async runCheck(): Promise<never> {
        throw new TypeError('bug')
      },
    }
    await expect(runChecks(client, ['https://a'])).rejects.toThrow('bug')
  })
})

describe('fetchRecent', () => {
  it('returns one page as the API gave it', async () => {
    const page = recentPage(2, 'c1')
    expect(await fetchRecent({ recent: async () => page }, { limit: 10 })).toBe(page)
  })

  it('--all follows next_cursor to the end into one list', async () => {
    const pages: Record<string, RecentChecks> = {
      '': recentPage(2, 'c1'),
      c1: recentPage(2, 'c2'),
      c2: recentPage(1, null),
    }
    const asked: Array<string | undefined> = []
    const client = {
      async recent(p: { limit?: number; cursor?: string }) {
        asked.push(p.cursor)
        return pages[p.cursor ?? '']
      },
    }
    const all = await fetchRecent(client, { limit: 50, all: true })
    expect(asked).toEqual([undefined, 'c1', 'c2'])
    expect(all.checks).toHaveLength(5)
    expect(all.next_cursor).toBeNull()
  })

  it('does not loop on a server that repeats a cursor', async () => {
    const all = await fetchRecent({ recent: async () => recentPage(1, 'same') }, { all: true })
    expect(all.checks).toHaveLength(2)
  })
})

describe('admin token', () => {
  it.each([
    ['http://127.0.0.1:8787', true],
    ['http://127.9.9.9', true],
    ['http://localhost:8787', true],
    ['http://api.localhost', true],
    ['http://[::1]:8787', true],
    ['http://[::ffff:127.0.0.1]:8787', true],
    ['http://10.0.0.1', false],
    ['https://health.example.com', false],
    ['not a url', false],
  ])('%s is loopback: %s', (url, loopback) => {
    expect(isLoopbackUrl(url)).toBe(loopback)
  })

  it('prefers the flag/env value, else reads <data-dir>/admin-token for a loopback URL', async () => {
    await writeFile(join(dir, 'admin-token'), 'from-file\n')
    expect(await resolveAdminToken({ flag: 'given', apiUrl: 'https://x.example', dataDir: dir })).toBe(
      'given',
    )
    expect(await resolveAdminToken({ apiUrl: 'http://127.0.0.1:8787', dataDir: dir })).toBe('from-file')
  })

  it('never sends the local token file to a remote URL', async () => {
    await expect(resolveAdminToken({ apiUrl: 'https://x.example', dataDir: dir })).rejects.toMatchObject({
      code: 'no_api_key',
    })
  })

  it('explains a missing token file', async () => {
    await expect(
      resolveAdminToken({ apiUrl: 'http://127.0.0.1', dataDir: join(dir, 'none') }),
    ).rejects.toThrow(/--admin-token.*SITEHEALTH_ADMIN_TOKEN.*--data-dir/)
  })
})
