/**
 * An in-process server for the dashboard's monitor and status-page browser tests: an embedded
 * store in a temp dir, open sign-up with the given accounts, the real monitors service and
 * scheduler, the app as `serve` composes it on a free port (with status-page subscribers when
 * asked), Chromium, and a signed-in page per account.
 */
import { createServer } from 'node:http'
import { toNodeHandler } from 'h3/node'
import type { Browser, Page } from 'playwright-core'
import { Accounts } from '../../src/accounts/index.js'
import { CheckCapacity, DEFAULT_CAPACITY } from '../../src/capacity/index.js'
import { startMonitoring, type Monitoring } from '../../src/monitors/index.js'
import { composeApp, type ComposeOptions } from '../../src/serve/index.js'
import { DEFAULT_LIMITS } from '../../src/server/context.js'
import { openLowdbStore, type LowdbStore } from '../../src/store/index.js'
import { removeDir, tempDir } from '../store/helpers.js'
import { launch } from './browser.js'

export const PASSWORD = 'correct horse battery'

export interface Dashboard {
  url: string
  store: LowdbStore
  monitoring: Monitoring
  browser: Browser
  /** Each account's user id, by email. */
  users: Map<string, string>
  signedIn(email: string): Promise<Page>
  close(): Promise<void>
}

export async function startDashboard(
  emails: string[],
  extra: Pick<ComposeOptions, 'subscribers'> = {},
): Promise<Dashboard> {
  const dir = await tempDir()
  const store = await openLowdbStore(dir)
  const accounts = new Accounts({
    store,
    accounts: store.accounts,
    signup: 'open',
    initialCredits: 5,
    passwordCost: { logN: 12, r: 8, p: 1 },
  })
  const users = new Map<string, string>()
  for (const email of emails) users.set(email, (await accounts.registration.signUp(email, PASSWORD))!.user_id)
  const capacity = new CheckCapacity(DEFAULT_CAPACITY)
  const monitoring = await startMonitoring({
    store,
    monitors: store.monitors,
    secretKey: 'test-secret-key-for-the-dashboard',
    allowPrivateTargets: true,
    checkTimeoutMs: 5000,
    capacity,
    scheduler: { catchUpMs: 0 },
  })
  const opts: ComposeOptions = {
    store,
    initialCredits: 5,
    allowPrivateTargets: true,
    adminToken: 'x'.repeat(40),
    limits: DEFAULT_LIMITS,
    checkTimeoutMs: 5000,
    accounts,
    capacity,
    monitoring,
    ...extra,
  }
  const composed = composeApp(opts)
  const server = createServer(toNodeHandler(composed.app))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  // public addresses (status pages) name this server, as serve sets it once listening
  opts.publicUrl = url
  const browser = await launch()
  return {
    url,
    store,
    monitoring,
    browser,
    users,
    async signedIn(email) {
      const page = await (await browser.newContext()).newPage()
      await page.goto(url)
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
      return page
    },
    async close() {
      await browser.close()
      await new Promise((r) => server.close(r))
      await composed.close()
      await monitoring.close()
      await store.close()
      await removeDir(dir)
    },
  }
}
