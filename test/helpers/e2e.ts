/**
 * The set-up most end-to-end files share: one real `serve` (startServe), one account's key and a
 * CLI home of its own, made before the file's tests and removed after them. The fields are read
 * when a test runs, so a file keeps its own sites and other servers beside them.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { publicApi } from './api.js'
import { cliRunner } from './cli.js'
import { startServe, type Served, type ServeOptions } from './serve.js'

export interface ServeWithAccount {
  readonly served: Served
  /** The account's API key. */
  readonly key: string
  /** The CLI's home directory (its saved config). */
  readonly home: string
  /** The public API with the account's key (or another). */
  api: ReturnType<typeof publicApi>
  /** The built CLI with that home. */
  cli: ReturnType<typeof cliRunner>['cli']
  /** The environment that points the CLI at this serve with the account's key. */
  env: () => Record<string, string>
}

export function serveWithAccount(opts: ServeOptions & { user: string; credits?: number }): ServeWithAccount {
  let served: Served | undefined
  let key = ''
  let home = ''
  beforeAll(async () => {
    served = await startServe(opts)
    home = await mkdtemp(join(tmpdir(), `sitehealth-${opts.user}-home-`))
    key = (await served.createKey({ user: opts.user, credits: opts.credits ?? 100 })).key
  }, 120_000)
  afterAll(async () => {
    await served?.stop()
    if (home) await rm(home, { recursive: true, force: true })
  })
  const must = () => {
    if (!served) throw new Error('serve is not up: read these fields inside a test')
    return served
  }
  return {
    get served() {
      return must()
    },
    get key() {
      return key
    },
    get home() {
      return home
    },
    api: publicApi(
      () => must().url,
      () => key,
    ),
    cli: cliRunner(() => home).cli,
    env: () => ({ SITEHEALTH_API_URL: must().url, SITEHEALTH_API_KEY: key }),
  }
}
