/** The commands' work functions with fake clients: URL lists, the check runner, paging, admin token. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/client/client.js'
import { isLoopbackUrl, resolveAdminToken } from '../../src/cli/admin-token.js'
import {
  batchExitCode,
  batchSummary,
  belowThreshold,
  runChecks,
  type CheckOutcome,
} from '../../src/cli/check-runner.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { UsageError } from '../../src/cli/errors.js'
import { fetchRecent } from '../../src/cli/recent-pages.js'
import { collectUrls, judgeEntry, parseUrlList } from '../../src/cli/url-list.js'
import type { RecentChecks } from '../../src/contract/index.js'
import { recentPage, runResult } from './fixtures.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitehealth-cli-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('URL lists', () => {
  const urls = (entries: Array<object>) => entries.map((e) => (e as { url?: string }).url)

  it('skips blank lines, # comment lines and inline " # comments", trims, keeps order', () => {
    expect(
      urls(
        parseUrlList(
          'https://a.example\n\n  # staging\n  https://b.example  \r\n#x\nhttps://c.example # the shop\nhttps://d.example/#top',
          'sites.txt',
        ),
      ),
    ).toEqual(['https://a.example', 'https://b.example', 'https://c.example', 'https://d.example/#top'])
  })
  it('names each entry by file and line', () => {
    const entries = parseUrlList('# head\nhttps://a.example\n\nexample.org\n', 'sites.txt')
    expect(entries.map((e) => e.where)).toEqual(['sites.txt:2', 'sites.txt:4'])
  })
  it('reads a bare host as https://host/ and says so', () => {
    expect(judgeEntry('example.com', 'argument 1')).toEqual({
      url: 'https://example.com/',
      where: 'argument 1',
      note: 'example.com has no scheme: checking https://example.com/',
      plainHttp: 'http://example.com/',
    })
    expect(judgeEntry('shop.example:8443/cart', 'x')).toMatchObject({ url: 'https://shop.example:8443/cart' })
    expect(judgeEntry('localhost:3000', 'x')).toMatchObject({ url: 'https://localhost:3000/' })
  })
  it.each([
    ['https://exa mple.com', /contains a space/],
    ['ftp://example.com', /only http and https/],
    ['not a url', /contains a space/],
    ['hello', /is not a URL: write it in full/],
    ['https://exa%mple.com', /not a valid URL/],
  ])('refuses %s', (raw, why) => {
    expect(judgeEntry(raw, 'sites.txt:4')).toEqual({
      where: 'sites.txt:4',
      message: expect.stringMatching(why),
    })
  })
  it('reads arguments first, then the file; `-` is stdin', async () => {
    const file = join(dir, 'urls.txt')
    await writeFile(file, '# list\nhttps://b.example\n')
    expect(urls(await collectUrls(['https://a.example'], file))).toEqual([
      'https://a.example',
      'https://b.example',
    ])
    expect(
      urls(
        await collectUrls([], '-', { stdin: Readable.from(['https://s.example\n', '\nhttps://t.example']) }),
      ),
    ).toEqual(['https://s.example', 'https://t.example'])
  })
  it('validates every line before anything runs, and names where each problem is', async () => {
    const file = join(dir, 'bad.txt')
    await writeFile(file, 'https://ok.example\nhttps://a b.example\nhttps://fine.example\nftp://x.example\n')
    const seen: string[] = []
    const err = await collectUrls([], file, {
      onProblem: (p) => seen.push(`${p.where}: ${p.message}`),
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UsageError)
    expect((err as Error).message).toBe(
      `2 entries are not URLs that can be checked (${file}:2, ${file}:4). Nothing was checked.`,
    )
    expect(seen).toEqual([
      expect.stringMatching(`^${file}:2: .*space`),
      expect.stringMatching(`^${file}:4: .*http`),
    ])
    await writeFile(file, 'https://ok.example\nexample com\n')
    await expect(collectUrls([], file)).rejects.toThrow(
      new RegExp(`^${file}:2: .*space.*Nothing was checked\\.$`),
    )
  })
  it('refuses no URL at all and an unreadable file as usage errors', async () => {
    await expect(collectUrls([], undefined)).rejects.toBeInstanceOf(UsageError)
    await expect(collectUrls([], join(dir, 'nope.txt'))).rejects.toThrow(/Cannot read --file .*no such file/)
    const empty = join(dir, 'empty.txt')
    await writeFile(empty, '# nothing\n\n')
    await expect(collectUrls([], empty)).rejects.toThrow(/No URL in --file/)
  })
})

describe('batch verdict', () => {
  const ok = (url: string, score: number): CheckOutcome => ({ url, result: runResult({ url, score }) })
  const failed = (url: string, code: string, status = 502): CheckOutcome => ({
    url,
    error: new ApiError(status, code, 'x'),
  })
  it('a site that cannot be reached is "target down" (7), not "checker down" (1)', () => {
    expect(batchExitCode([ok('a', 90), failed('b', 'check_failed')])).toBe(EXIT.targetDown)
    expect(batchExitCode([ok('a', 90), failed('b', 'network_error', 0)])).toBe(EXIT.failure)
  })
  it('under --fail-under an unreachable site counts as score 0: exit 3', () => {
    expect(batchExitCode([ok('a', 90), failed('b', 'check_failed')], 80)).toBe(EXIT.belowThreshold)
    expect(batchExitCode([ok('a', 70)], 80)).toBe(EXIT.belowThreshold)
    expect(batchExitCode([ok('a', 90)], 80)).toBe(EXIT.ok)
  })
  it('a failure of the request or the checker wins over the sites', () => {
    expect(batchExitCode([failed('a', 'check_failed'), failed('b', 'invalid_url', 400)], 80)).toBe(EXIT.usage)
    expect(batchExitCode([ok('a', 10), failed('b', 'insufficient_credits', 402)], 80)).toBe(
      EXIT.insufficientCredits,
    )
  })
  it('the closing line counts passed / below / failed / not run and the credits', () => {
    const outcomes = [ok('a', 90), ok('b', 40), failed('c', 'check_failed')]
    expect(batchSummary(outcomes, 4, 80)).toBe(
      '4 URLs: 1 passed, 1 below 80, 1 failed, 1 not run; 2 credits used, 41 left.',
    )
    expect(batchSummary(outcomes, 3)).toBe('3 URLs: 2 checked, 1 failed; 2 credits used, 41 left.')
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
    // the data dir's live owner listens on 127.0.0.1:8787 (this process stands in for `serve`)
    await writeFile(
      join(dir, 'serve.json'),
      JSON.stringify({
        pid: process.pid,
        host: '127.0.0.1',
        port: 8787,
        started_at: new Date().toISOString(),
      }),
    )
    const given = 'given-admin-token-0123456789abcdefghij'
    expect(await resolveAdminToken({ flag: given, apiUrl: 'https://x.example', dataDir: dir })).toBe(given)
    expect(await resolveAdminToken({ apiUrl: 'http://127.0.0.1:8787', dataDir: dir })).toBe('from-file')
  })

  it('sends the token file only to the live serve that owns the data dir, on its port', async () => {
    await writeFile(join(dir, 'admin-token'), 'from-file\n')
    const record = (o: object) =>
      writeFile(
        join(dir, 'serve.json'),
        JSON.stringify({ pid: process.pid, host: '127.0.0.1', port: 8787, started_at: '', ...o }),
      )
    await rm(join(dir, 'serve.json'), { force: true })
    await expect(resolveAdminToken({ apiUrl: 'http://127.0.0.1:8787', dataDir: dir })).rejects.toThrow(
      /Not sending the admin token file.*no running `sitehealth serve`.*--admin-token/,
    )
    await record({ port: 9999 })
    await expect(resolveAdminToken({ apiUrl: 'http://127.0.0.1:8787', dataDir: dir })).rejects.toThrow(
      /listens on port 9999, not 8787/,
    )
    await record({ host: '127.0.0.2' })
    await expect(resolveAdminToken({ apiUrl: 'http://127.0.0.1:8787', dataDir: dir })).rejects.toThrow(
      /listens on 127\.0\.0\.2/,
    )
    // a pid that is not running (a stale record after kill -9)
    await record({ pid: 2 ** 22 + 12345 })
    await expect(resolveAdminToken({ apiUrl: 'http://127.0.0.1:8787', dataDir: dir })).rejects.toThrow(
      /is not running/,
    )
    await record({ host: '0.0.0.0' })
    expect(await resolveAdminToken({ apiUrl: 'http://localhost:8787', dataDir: dir })).toBe('from-file')
  })

  it('refuses to send a weak admin token', async () => {
    await expect(
      resolveAdminToken({ flag: 'change-me', apiUrl: 'https://x.example', dataDir: dir }),
    ).rejects.toThrow(/too weak.*at least 32.*openssl rand -base64 32/)
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
