/**
 * The dashboard end to end, in a real browser against the built CLI's `serve` (docs/decisions.md#accounts-and-the-dashboard): sign
 * up and in, throttling, sign-out, the API-keys area with the CLI, running a check, `sitehealth
 * login`/`logout`, CSRF, other users' pages, sign-up policies, admin pages, axe-core on every page,
 * keyboard use, 390-1280 px, dark mode, screenshots.
 */
import { createServer, type Server } from 'node:http'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTargets, type Targets } from '../fixtures/targets.js'
import { CLI, startServe, type Served } from '../helpers/serve.js'
import {
  expectAccessible,
  expectFits,
  haveChromium,
  launch,
  noticeIfMissing,
  screenshot,
} from '../dashboard/browser.js'

noticeIfMissing()

const PASSWORD = 'correct horse battery'

describe.runIf(haveChromium || process.env.CI)('dashboard in a browser', { timeout: 240_000 }, () => {
  let browser: Browser
  let serve: Served
  let closed: Served
  let targets: Targets
  let home: string
  const env = () => ({
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    HOME: home,
    NO_COLOR: '1',
  })
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    execa('node', [CLI, ...args], { env: { ...env(), ...extra }, reject: false, timeout: 60_000 })

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'sitehealth-dash-'))
    ;[serve, closed, targets, browser] = await Promise.all([
      startServe({ args: ['--signup', 'open'] }),
      startServe(),
      startTargets(),
      launch(),
    ])
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all([serve?.stop(), closed?.stop(), targets?.close()])
    await rm(home, { recursive: true, force: true })
  })

  async function signUp(ctx: BrowserContext, email: string, base = serve.url): Promise<Page> {
    const page = await ctx.newPage()
    await page.goto(`${base}/sign-up`)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()
    // sign-up answers alike for new and taken emails (no enumeration), then the visitor signs in
    await page.getByRole('status').filter({ hasText: 'If this email is new here' }).waitFor()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
    return page
  }

  async function signIn(page: Page, email: string, password = PASSWORD, base = serve.url) {
    await page.goto(base)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
  }

  it('signs up with --signup open, signs out (the old cookie no longer works) and signs in again', async () => {
    const ctx = await browser.newContext()
    const page = await signUp(ctx, 'ada@example.com')
    await expectAccessible(page, 'overview')
    const cookie = (await ctx.cookies()).find((c) => c.name === 'sh_session')!
    expect(cookie.httpOnly).toBe(true)
    expect(cookie.sameSite).toBe('Lax')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    // the old session cookie, replayed, is signed out
    const replay = await fetch(`${serve.url}/keys`, {
      headers: { cookie: `sh_session=${cookie.value}` },
      redirect: 'manual',
    })
    expect(replay.status).toBe(303)
    expect(replay.headers.get('location')).toMatch(/^\/\?next=/)
    await signIn(page, 'ada@example.com')
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
    const again = (await ctx.cookies()).find((c) => c.name === 'sh_session')!
    expect(again.value).not.toBe(cookie.value) // rotated at sign-in
    await ctx.close()
  })

  it('refuses a wrong password and throttles repeated failures, even with the right password after', async () => {
    const ctx = await browser.newContext()
    await (await signUp(ctx, 'bob@example.com')).close()
    await ctx.clearCookies()
    const page = await ctx.newPage()
    await signIn(page, 'bob@example.com', 'wrong password 1')
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong email or password.')
    await expectAccessible(page, 'sign-in with an error')
    for (let i = 2; i <= 5; i++) await signIn(page, 'bob@example.com', `wrong password ${i}`)
    await signIn(page, 'bob@example.com')
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Too many failed sign-ins')
    await ctx.close()
  })

  it('creates a key shown once, which the CLI uses; revoking it in the page makes the CLI exit 4', async () => {
    const ctx = await browser.newContext()
    const page = await signUp(ctx, 'cy@example.com')
    await page.getByRole('link', { name: 'API keys', exact: true }).click()
    await page.getByLabel('Name').fill('laptop')
    await page.getByRole('button', { name: 'Create key' }).click()
    const secret = await page.getByLabel('Secret').inputValue()
    expect(secret).toMatch(/^shk_live_/)
    await page.getByRole('button', { name: 'Copy' }).waitFor()
    await expectAccessible(page, 'keys with a new secret')
    // the picture (kept and put in the README) must not carry a checksum-valid key for scanners to flag
    await page
      .getByLabel('Secret')
      .evaluate((el) => ((el as HTMLInputElement).value = `shk_live_${'•'.repeat(36)}`))
    await screenshot(page, 'api-keys')
    const credits = await cli(['credits', '--json', '--api-url', serve.url, '--api-key', secret])
    expect(credits.exitCode, credits.stderr).toBe(0)
    expect(JSON.parse(credits.stdout).credits_remaining).toBe(100)

    await page.reload()
    await expect.poll(() => page.getByLabel('Secret').count()).toBe(0)
    expect(await page.content()).not.toContain(secret)
    const row = page.getByRole('row', { name: /laptop/ })
    await expect.poll(() => row.textContent()).toContain('shk_live_')
    await expect.poll(() => row.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/) // last used

    await row.getByRole('button', { name: 'Revoke' }).click()
    await page.getByRole('heading', { name: /Revoke the key/ }).waitFor()
    await expectAccessible(page, 'revoke confirmation')
    await page.getByRole('button', { name: 'Revoke' }).click()
    await expect
      .poll(() =>
        page
          .getByRole('row', { name: /laptop/ })
          .getByRole('button', { name: 'Revoke' })
          .count(),
      )
      .toBe(0)
    const after = await cli(['credits', '--api-url', serve.url, '--api-key', secret])
    expect(after.exitCode).toBe(4)
    await ctx.close()
  })

  it('runs a check from the page, with progress, and finds it in the list and on its page with five signals', async () => {
    const ctx = await browser.newContext()
    const page = await signUp(ctx, 'dee@example.com')
    await page.goto(`${serve.url}/run`)
    await expectAccessible(page, 'run a check')
    await page.getByLabel('URL').fill(`${targets.delay}?ms=1500`)
    // the click returns once the result page commits: record the progress panel while the check runs
    const seen: string[] = []
    await page.exposeFunction('sawProgress', (text: string) => seen.push(text))
    await page.evaluate(() => {
      const panel = document.getElementById('run-progress')!
      new MutationObserver(() => {
        if (!panel.hidden)
          (window as unknown as { sawProgress: (t: string) => void }).sawProgress(panel.textContent ?? '')
      }).observe(panel, { attributes: true, childList: true, subtree: true, characterData: true })
    })
    await page.getByRole('button', { name: 'Run check' }).click()
    expect(
      seen.some((t) => /Checking… \d+ s/.test(t)),
      seen.join(' | '),
    ).toBe(true)
    await page.getByRole('heading', { level: 1, name: /^Check of / }).waitFor({ timeout: 30_000 })
    const checkUrl = page.url()
    for (const name of [
      'Reachability',
      'HTTPS and certificate',
      'Response time',
      'Security headers',
      'Performance',
    ])
      await page.getByRole('heading', { level: 3, name }).waitFor()
    await expectAccessible(page, 'check page')
    await screenshot(page, 'check')
    await page.getByRole('link', { name: 'Checks', exact: true }).click()
    await page.getByRole('link', { name: `${targets.delay}?ms=1500` }).waitFor()
    await expectAccessible(page, 'checks list')
    await page.getByRole('link', { name: 'Overview', exact: true }).click()
    await page.getByText('99', { exact: true }).waitFor() // credits after one saved check
    await screenshot(page, 'overview')

    // another user's check page is 404, like an unknown one
    const other = await browser.newContext()
    const eve = await signUp(other, 'eve@example.com')
    const res = await eve.goto(checkUrl)
    expect(res?.status()).toBe(404)
    await expectAccessible(eve, 'not found')
    await other.close()
    await ctx.close()
  })

  it('a bad URL is refused on the page without a charge', async () => {
    const ctx = await browser.newContext()
    const page = await signUp(ctx, 'fay@example.com')
    await page.goto(`${serve.url}/run`)
    await page.getByLabel('URL').fill('ftp://example.com/')
    await page.getByRole('button', { name: 'Run check' }).click()
    await page.getByRole('alert').waitFor()
    expect(await page.getByRole('alert').textContent()).toContain('Only http and https URLs can be checked')
    // still 100 credits: nothing was charged
    expect(await page.getByText('you have 100').count()).toBe(1)
    await ctx.close()
  })

  it('sitehealth login: the CLI prints a code, the browser approves it, the config then holds a working key; logout revokes it', async () => {
    const ctx = await browser.newContext()
    const page = await signUp(ctx, 'gus@example.com')
    // a key of another user is saved already: login must say it replaces it
    const old = await serve.createKey({ user: 'someone-else', name: 'old laptop' })
    await mkdir(join(home, 'config', 'sitehealth'), { recursive: true })
    await writeFile(
      join(home, 'config', 'sitehealth', 'config.json'),
      JSON.stringify({ api_url: serve.url, api_key: old.key }),
    )
    const login = execa('node', [CLI, 'login', '--api-url', serve.url, '--name', 'test machine'], {
      env: env(),
      reject: false,
      timeout: 60_000,
    })
    let out = ''
    login.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    await expect.poll(() => /code: ([A-Z]{4}-[A-Z]{4})/.exec(out)?.[1], { timeout: 15_000 }).toBeTruthy()
    const code = /code: ([A-Z]{4}-[A-Z]{4})/.exec(out)![1]
    expect(out).toContain(`${serve.url}/device`)
    await page.goto(`${serve.url}/device`)
    await page.getByLabel('Code').fill(code.toLowerCase())
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByText('test machine').waitFor()
    await expectAccessible(page, 'device approval')
    await page.getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Approved')
    const done = await login
    expect(done.exitCode, done.stderr + done.stdout).toBe(0)
    expect(done.stderr).toContain(`replaces the saved key ${old.key.slice(0, 15)}… (for ${serve.url})`)
    expect(done.stdout).toContain(`It replaces the saved key ${old.key.slice(0, 15)}… (for ${serve.url})`)
    const config = JSON.parse(await readFile(join(home, 'config', 'sitehealth', 'config.json'), 'utf8'))
    expect(config.api_url).toBe(serve.url)
    expect(config.api_key).toMatch(/^shk_live_/)
    const credits = await cli(['credits', '--json'])
    expect(credits.exitCode, credits.stderr).toBe(0)
    await page.goto(`${serve.url}/keys`)
    await page.getByRole('row', { name: /test machine/ }).waitFor()

    const logout = await cli(['logout'])
    expect(logout.exitCode, logout.stderr).toBe(0)
    const after = JSON.parse(await readFile(join(home, 'config', 'sitehealth', 'config.json'), 'utf8'))
    expect(after.api_key).toBeUndefined()
    const revoked = await cli(['credits', '--api-key', config.api_key])
    expect(revoked.exitCode).toBe(4)
    await ctx.close()
  })

  it("the README's first minutes lead to one account: users create, set the password, login, check; the dashboard shows the CLI's check", async () => {
    const fresh = await startServe()
    const own = { XDG_CONFIG_HOME: join(home, 'readme-config') }
    const ctx = await browser.newContext()
    try {
      const made = await cli(
        [
          'users',
          'create',
          '--email',
          'you@example.com',
          '--admin',
          '--json',
          '--api-url',
          fresh.url,
          '--data-dir',
          fresh.dataDir,
        ],
        own,
      )
      expect(made.exitCode, made.stderr).toBe(0)
      const { setup_url, user_id } = JSON.parse(made.stdout)
      const page = await ctx.newPage()
      await page.goto(setup_url)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Set password' }).click()
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()

      const login = execa('node', [CLI, 'login', '--api-url', fresh.url, '--no-browser'], {
        env: { ...env(), ...own },
        reject: false,
        timeout: 60_000,
      })
      let out = ''
      login.stdout!.on('data', (d: Buffer) => (out += d.toString()))
      await expect.poll(() => /code: ([A-Z]{4}-[A-Z]{4})/.exec(out)?.[1], { timeout: 15_000 }).toBeTruthy()
      await page.goto(`${fresh.url}/device?code=${/code: ([A-Z]{4}-[A-Z]{4})/.exec(out)![1]}`)
      await page.getByRole('button', { name: 'Approve' }).click()
      const done = await login
      expect(done.exitCode, done.stderr + done.stdout).toBe(0)

      const status = await cli(['auth', 'status', '--json'], own)
      expect(JSON.parse(status.stdout).authenticated).toBe(true)
      const check = await cli(['check', targets.plainHttp, '--json'], own)
      expect(check.exitCode, check.stderr).toBe(0)
      const { data } = JSON.parse(check.stdout)
      // the key login saved belongs to the account made above
      const keys = await cli(
        ['keys', 'list', '--json', '--api-url', fresh.url, '--data-dir', fresh.dataDir],
        own,
      )
      expect(JSON.parse(keys.stdout).keys.map((k: { user_id: string }) => k.user_id)).toEqual([user_id])
      await page.goto(`${fresh.url}/checks`)
      await expect.poll(async () => (await page.content()).includes(data.id.slice(-8))).toBe(true)
    } finally {
      await ctx.close()
      await fresh.stop()
    }
  })

  it('sitehealth login that is denied ends with a clear error and exit 4', async () => {
    const ctx = await browser.newContext()
    const page = await signUp(ctx, 'hal@example.com')
    const login = execa('node', [CLI, 'login', '--api-url', serve.url], {
      env: env(),
      reject: false,
      timeout: 60_000,
    })
    let out = ''
    login.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    await expect.poll(() => /code: ([A-Z]{4}-[A-Z]{4})/.exec(out)?.[1], { timeout: 15_000 }).toBeTruthy()
    await page.goto(`${serve.url}/device?code=${/code: ([A-Z]{4}-[A-Z]{4})/.exec(out)![1]}`)
    await page.getByRole('button', { name: 'Deny' }).click()
    const done = await login
    expect(done.exitCode).toBe(4)
    expect(done.stderr).toContain('denied')
    await ctx.close()
  })

  it('refuses a cross-site form post without the CSRF token', async () => {
    const ctx = await browser.newContext()
    const page = await signUp(ctx, 'ivy@example.com')
    const evil: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html')
      res.end(
        `<form id="f" method="post" action="${serve.url}/keys"><input name="name" value="stolen"></form>` +
          `<script>document.getElementById('f').submit()</script>`,
      )
    })
    await new Promise<void>((r) => evil.listen(0, 'localhost', () => r()))
    const port = (evil.address() as { port: number }).port
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${serve.url}/keys` && r.request().method() === 'POST'),
      page.goto(`http://localhost:${port}/`),
    ])
    expect(response.status()).toBe(403)
    evil.close()
    // and a same-site post that lacks the token is refused as well
    const noToken = await page.evaluate(async (url) => {
      const r = await fetch(`${url}/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=sneaky',
      })
      return r.status
    }, serve.url)
    expect(noToken).toBe(403)
    await page.goto(`${serve.url}/keys`)
    await expect.poll(() => page.getByText('stolen').count()).toBe(0)
    await expect.poll(() => page.getByText('sneaky').count()).toBe(0)
    await ctx.close()
  })

  it('--signup closed refuses sign-up; an admin made with `users create` sets a password and uses the admin pages', async () => {
    const ctx = await browser.newContext()
    const page = await ctx.newPage()
    const res = await page.goto(`${closed.url}/sign-up`)
    expect(res?.status()).toBe(403)
    await page.getByRole('heading', { name: 'Sign-up is closed' }).waitFor()
    await expect.poll(() => page.getByRole('link', { name: 'Sign up' }).count()).toBe(0)

    const made = await cli([
      'users',
      'create',
      '--email',
      'root@example.com',
      '--admin',
      '--json',
      '--api-url',
      closed.url,
      '--data-dir',
      closed.dataDir,
    ])
    expect(made.exitCode, made.stderr).toBe(0)
    const { setup_url } = JSON.parse(made.stdout)
    await page.goto(setup_url)
    await expectAccessible(page, 'set password')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Set password' }).click()
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
    // the link worked once
    const reused = await fetch(setup_url)
    expect(reused.status).toBe(404)

    // an API-only user: a key from the admin API, no dashboard account
    const botKey = (await closed.createKey({ user: 'ci-bot', credits: 7, name: 'ci' })).key
    await page.getByRole('link', { name: 'Users', exact: true }).click()
    await expectAccessible(page, 'admin users')
    const bot = page.getByRole('row', { name: /ci-bot/ })
    expect(await bot.textContent()).toMatch(/API only.*7.*1 active key/)
    await page.getByLabel('Add credits for ci-bot').fill('3')
    await bot.getByRole('button', { name: 'Grant' }).click()
    await expect.poll(() => page.getByRole('row', { name: /ci-bot/ }).textContent()).toMatch(/API only\s*10/)
    const botCredits = await cli(['credits', '--json', '--api-url', closed.url, '--api-key', botKey])
    expect(JSON.parse(botCredits.stdout).credits_remaining).toBe(10)
    await page.getByLabel('Email', { exact: true }).fill('zed@example.com')
    await page.getByRole('button', { name: 'Create user' }).click()
    await expect.poll(() => page.getByLabel('Link', { exact: true }).inputValue()).toMatch(/\/invite\//)
    await screenshot(page, 'admin-users')
    await page.getByLabel('Add credits for zed@example.com').fill('5')
    await page.getByRole('button', { name: 'Grant' }).nth(1).click()
    await expect.poll(() => page.getByRole('row', { name: /zed@example.com/ }).textContent()).toContain('105')
    const list = await cli(['users', 'list', '--json', '--api-url', closed.url, '--data-dir', closed.dataDir])
    expect(JSON.parse(list.stdout).users.map((u: { email: string }) => u.email)).toEqual([
      'root@example.com',
      'zed@example.com',
    ])
    const disabled = await cli([
      'users',
      'disable',
      'zed@example.com',
      '--api-url',
      closed.url,
      '--data-dir',
      closed.dataDir,
    ])
    expect(disabled.exitCode, disabled.stderr).toBe(0)
    await page.getByRole('link', { name: 'All keys', exact: true }).click()
    await expectAccessible(page, 'admin keys')
    await page.getByRole('link', { name: 'Account', exact: true }).click()
    await expectAccessible(page, 'account')
    await screenshot(page, 'account')
    await page.getByRole('link', { name: 'Monitors', exact: true }).click()
    await expectAccessible(page, 'monitors')
    await ctx.close()
  })

  it('signed-out pages pass axe in light and dark, fit 390 px, and sign-in works by keyboard alone', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const ctx = await browser.newContext({ colorScheme })
      const page = await ctx.newPage()
      await page.goto(serve.url)
      await expectAccessible(page, `sign-in (${colorScheme})`)
      await page.goto(`${serve.url}/sign-up`)
      await expectAccessible(page, `sign-up (${colorScheme})`)
      await page.setViewportSize({ width: 390, height: 800 })
      await expectFits(page, 'sign-up at 390 px')
      await ctx.close()
    }
    const ctx = await browser.newContext({ colorScheme: 'dark' })
    const page = await signUp(ctx, 'kim@example.com')
    await expectAccessible(page, 'overview (dark)')
    await screenshot(page, 'overview-dark')
    await ctx.clearCookies()
    await page.goto(serve.url)
    await screenshot(page, 'sign-in')
    // keyboard only: the skip link first, then the form in order, Enter submits
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    const focusName = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)
    for (let i = 0; i < 5 && (await focusName()) !== 'email'; i++) await page.keyboard.press('Tab')
    expect(await focusName()).toBe('email')
    await page.keyboard.type('kim@example.com')
    await page.keyboard.press('Tab')
    await page.keyboard.type(PASSWORD)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
    // the main navigation is reachable by Tab with a visible focus ring
    for (
      let i = 0;
      i < 10 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'API keys';
      i++
    )
      await page.keyboard.press('Tab')
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)
    expect(outline).not.toBe('none')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor()
    await ctx.close()
  })
})

describe.runIf(!haveChromium && process.env.CI)('dashboard browser', () => {
  it('needs Chromium under CI', () => {
    expect.fail('/usr/bin/chromium is missing: .ci/run installs it with apt-get install -y chromium')
  })
})
