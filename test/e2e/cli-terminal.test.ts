/**
 * The CLI on a real terminal: a pseudo-terminal of a fixed width (60, 80, 120 columns, and
 * COLUMNS), as a person sees it. Text wraps with a hanging indent and never past the edge; tables
 * are fitted and borderless; progress goes to stderr when stderr is a terminal, also while stdout
 * goes to a file; a typo gets a "did you mean" line, never a prompt.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTargets, type Targets } from '../fixtures/targets.js'
import { startServe, type Served } from '../helpers/serve.js'
import { cliRunner, visible, type Env } from '../helpers/cli.js'

let home: string
const { cli, tty } = cliRunner(() => home)

let served: Served
let targets: Targets
let env: Env
let long: string

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'sitehealth-cli-tty-'))
  targets = await startTargets()
  served = await startServe({ args: ['--run-limit', '1000', '--rate-limit', '100000'] })
  const key = (await served.createKey({ user: 'tty', credits: 50 })).key
  env = { SITEHEALTH_API_URL: served.url, SITEHEALTH_API_KEY: key }
  // a long URL: the table has to cut it
  long = `${targets.plainHttp}?${'segment=with-a-long-value&'.repeat(4)}end=1`
}, 60_000)
afterAll(async () => {
  await served?.stop()
  await targets?.close()
  await rm(home, { recursive: true, force: true })
})

const lines = (screen: string) =>
  visible(screen)
    .split('\n')
    .filter((l) => l.trim() !== '')

describe.each([60, 80, 120])('%i columns', { timeout: 180_000 }, (columns) => {
  it('check: every line fits, continuation lines hang under the message, no word is cut', async () => {
    const r = await tty(`$SH check ${JSON.stringify(long)}`, { columns, env })
    expect(r.code, r.screen).toBe(0)
    const shown = lines(r.screen)
    for (const l of shown) expect(l.length, l).toBeLessThanOrEqual(columns)
    const summary = shown.findIndex((l) => l.startsWith('  summary'))
    expect(summary).toBeGreaterThan(0)
    const col =
      shown[summary].indexOf('  ', 4) +
      2 +
      shown[summary].slice(shown[summary].indexOf('  ', 4) + 2).search(/\S/)
    // the next line is the summary's continuation (the summaries here are long): same column
    if (!/^ {2}\S/.test(shown[summary + 1])) expect(shown[summary + 1].search(/\S/)).toBe(col)
    // no word is cut at the edge: joined back at the line breaks, the screen holds every message
    // and the summary word for word, as the saved check has them
    const id = /check id\s+([0-9a-f-]{36})/.exec(visible(r.screen))?.[1]
    const saved = await cli(['get', String(id), '--json'], { env })
    expect(saved.code, saved.stderr).toBe(0)
    const check = JSON.parse(saved.stdout) as { summary: string; checks: Record<string, { message: string }> }
    const joined = visible(r.screen).replace(/\n +/g, ' ')
    for (const text of [check.summary, ...Object.values(check.checks).map((c) => c.message)])
      expect(joined, text).toContain(text)
  })

  it('recent: a fitted borderless table with short ids and the URL cut to fit', async () => {
    const r = await tty('$SH recent', { columns, env })
    expect(r.code, r.screen).toBe(0)
    const shown = lines(r.screen)
    for (const l of shown) expect(l.length, l).toBeLessThanOrEqual(columns)
    expect(shown[0]).toMatch(/^ID\s+URL\s+SCORE\s+RISK\s+CREATED \(UTC\)$/)
    expect(shown[1]).toMatch(/^[0-9a-f]{8} {2}http/)
    expect(r.screen).not.toMatch(/[│┌└─]/)
    if (columns < 120) expect(shown[1]).toContain('…')
  })

  it('keys list fits too', async () => {
    const r = await tty(`$SH keys list --api-url ${served.url} --data-dir ${served.dataDir}`, {
      columns,
      env,
    })
    expect(r.code, r.screen).toBe(0)
    for (const l of lines(r.screen)) expect(l.length, l).toBeLessThanOrEqual(columns)
  })
})

describe('COLUMNS and pipes', { timeout: 180_000 }, () => {
  it('COLUMNS wins over the terminal width', async () => {
    const r = await tty(`$SH check ${JSON.stringify(targets.plainHttp)}`, {
      columns: 120,
      env: { ...env, COLUMNS: '60' },
    })
    expect(r.code, r.screen).toBe(0)
    for (const l of lines(r.screen)) expect(l.length, l).toBeLessThanOrEqual(60)
    expect(lines(r.screen).some((l) => l.length > 50)).toBe(true)
  })

  it('stdout to a file, stderr on the terminal: progress and a closing summary on the terminal, pure JSON in the file', async () => {
    const file = join(home, 'sites.txt')
    const out = join(home, 'results.json')
    await writeFile(file, `${targets.plainHttp}\n${targets.closedPort}\n${targets.plainHttp}?again\n`)
    const r = await tty(`$SH check --file ${file} --json > ${out}`, { columns: 80, env })
    expect(r.code).toBe(7)
    const screen = visible(r.screen)
    expect(screen).toMatch(/\[1\/3\] http:\/\/127\.0\.0\.1:\d+\/ +\d+\/100 +\w+ risk/)
    expect(screen).toMatch(/\[2\/3\] http:\/\/127\.0\.0\.1:\d+\/ +failed: check_failed/)
    expect(screen).toMatch(/3 URLs: 2 checked, 1 failed; 2 credits used, \d+ left\./)
    const body = JSON.parse(await readFile(out, 'utf8'))
    expect(body.map((x: { ok: boolean }) => x.ok)).toEqual([true, false, true])
    expect(body[1].url).toBe(targets.closedPort)
  })

  it('stdout piped: tab-separated rows even on a terminal stderr, no colour in them', async () => {
    const r = await tty('$SH recent | cat', { columns: 80, env })
    const rows = visible(r.screen)
      .split('\n')
      .filter((l) => l.includes('\t'))
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row.split('\t')).toHaveLength(5)
    expect(rows[0]).toMatch(/^[0-9a-f-]{36}\t/)
  })
})

describe('did you mean', { timeout: 180_000 }, () => {
  it('a typo on a terminal is answered with the nearest user command, never a prompt', async () => {
    // stdin is the terminal, and nothing is typed: a prompt would wait (oclif's plugin asked,
    // with Yes as the default, whether to run `credits grant` for this line)
    const r = await tty('$SH chek https://example.com', { columns: 120, env, timeout: 20_000 })
    expect(r.code, r.screen).toBe(127)
    const shown = visible(r.screen)
    expect(shown).toMatch(
      /chek is not a sitehealth command\. Did you mean `sitehealth check https:\/\/example\.com`\?/,
    )
    expect(shown).not.toMatch(/credits grant|\(Y\/n\)/)
  })
})
