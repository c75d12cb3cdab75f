/**
 * The base of every client and admin command: shared flags, the client built from
 * flag > env > config file > default, the output mode (colour, spinner, --json), and the one
 * place where an error becomes an exit code and a message (`catch`, with the table in
 * exit-codes.ts). Commands only parse, call one function and hand the result to a renderer.
 */
import { Command, type Interfaces } from '@oclif/core'
import { SitehealthClient } from '../client/client.js'
import { resolveClientSettings, type ClientSettings, type Source } from '../client/config.js'
import { resolveAdminToken } from './admin-token.js'
import { UsageError } from './errors.js'
import { describeFailure, EXIT, type FailureContext } from './exit-codes.js'
import { adminFlags, clientFlags } from './flags.js'
import type { View } from './render/view.js'
import { outputMode, outputWidth } from './style.js'
import { Terminal } from './terminal.js'

export type InferredFlags<T extends typeof Command> = Interfaces.InferredFlags<T['baseFlags'] & T['flags']>
export type InferredArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>

/** How long `check` and friends wait out a Retry-After (429, 503 server_busy) before giving up. */
export const MAX_RATE_LIMIT_WAIT_SECONDS = 120

function isExit(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'EEXIT'
}

abstract class SitehealthCommand<T extends typeof Command> extends Command {
  protected flags!: InferredFlags<T>
  protected args!: InferredArgs<T>
  /** Positional arguments of a non-strict command (`check URL...`). */
  protected rest: string[] = []
  protected terminal!: Terminal
  /** Filled as settings become known, for better error hints. */
  protected readonly failureContext: FailureContext = {}
  /** Suggested when the API answers not_found (commands taking an id set it). */
  protected static notFoundHint?: string

  override async init(): Promise<void> {
    await super.init()
    // `sitehealth recent | head -1`: a closed pipe ends the output, it is not a crash
    process.stdout.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0)
      throw err
    })
    this.failureContext.bin = this.config.bin
    this.failureContext.notFoundHint = (this.ctor as unknown as typeof SitehealthCommand).notFoundHint
    const { flags, args, argv } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: this.ctor.baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    })
    this.flags = flags as InferredFlags<T>
    this.args = args as InferredArgs<T>
    this.rest = (argv as unknown[]).map(String)
    const color = (this.flags as { color?: boolean }).color
    this.terminal = new Terminal(
      outputMode({
        stdoutIsTTY: Boolean(process.stdout.isTTY),
        stderrIsTTY: Boolean(process.stderr.isTTY),
        // --color forces it as FORCE_COLOR does; --no-color beats every variable
        env: color === true ? { ...process.env, FORCE_COLOR: '1' } : process.env,
        json: this.json,
        noColor: color === false,
        width: outputWidth(process.env, process.stdout),
      }),
    )
  }

  /**
   * Ctrl-C (SIGINT) from here on: stop the spinner, say on stderr what the interrupted request may
   * still do on the server (`note`: a request already sent is not called back; a check still runs
   * and is charged), and exit 130 as shells expect of an interrupted command.
   */
  protected interruptible(note: string): void {
    process.once('SIGINT', () => {
      this.terminal?.halt()
      process.stderr.write(`Interrupted: ${note}\n`)
      process.exit(EXIT.interrupted)
    })
  }

  /** Request deadline from --timeout / SITEHEALTH_TIMEOUT, ms. */
  protected get timeoutMs(): number | undefined {
    const t = (this.flags as { timeout?: number }).timeout
    return t === undefined ? undefined : t * 1000
  }

  /**
   * Ask before a destructive or surprising action. --yes answers for scripts; without it and
   * without a terminal to ask on, the command stops with a usage error saying so.
   */
  protected async confirm(question: string, yes: boolean): Promise<void> {
    if (yes) return
    if (!process.stdin.isTTY || !process.stderr.isTTY || this.json)
      throw new UsageError(`${question} Pass --yes to confirm (stdin is not a terminal, so I cannot ask).`)
    const { default: ask } = await import('@inquirer/confirm')
    let ok = false
    try {
      ok = await ask({ message: question, default: false }, { output: process.stderr })
    } catch {
      ok = false // Ctrl-C at the prompt
    }
    if (!ok) throw new UsageError('Cancelled: nothing was changed.')
  }

  /** --json, also when parsing failed before the flags were known. */
  protected get json(): boolean {
    const parsed = (this.flags as { json?: boolean } | undefined)?.json
    return (
      parsed ??
      (this.argv.includes('--json') && !this.argv.slice(0, this.argv.indexOf('--json')).includes('--'))
    )
  }

  /** Success output: the API body with --json, else the human view. */
  protected emit(body: unknown, human: (view: View) => string): void {
    if (this.json) this.terminal.json(body)
    else this.terminal.out(human(this.terminal.view))
  }

  /**
   * A list: the rows on stdout (a fitted table, or tab-separated lines in a pipe) and the count
   * and next-page line after them: on stdout for people, on stderr in a pipe so the rows stay
   * machine-readable. Nothing but the API body with --json.
   */
  protected emitList(body: unknown, rows: (view: View) => string, footer: string, empty: boolean): void {
    if (this.json) return this.terminal.json(body)
    const view = this.terminal.view
    if (!empty) this.terminal.out(rows(view))
    if (view.tty) this.terminal.out(footer)
    else this.terminal.notice(footer)
  }

  /** Waiting on the network: a spinner on a terminal, nothing otherwise. */
  protected spin<R>(text: string, work: () => Promise<R>): Promise<R> {
    return this.terminal.spin(text, work)
  }

  /** Progress of a wait on 429 or 503 server_busy, on stderr, also with --json (stdout stays pure JSON). */
  protected onRateLimitWait = (seconds: number, code: string): void => {
    const what =
      code === 'server_busy'
        ? 'Server busy'
        : code === 'service_unavailable'
          ? 'Service unavailable'
          : 'Rate limited'
    this.terminal?.notice(`${what}; waiting ${seconds} s…`)
  }

  protected async settings(flags: { apiUrl?: string; apiKey?: string }): Promise<ClientSettings> {
    const settings = await resolveClientSettings(this.config.configDir, flags)
    this.failureContext.apiUrl = settings.apiUrl
    let url: URL | undefined
    try {
      url = new URL(settings.apiUrl)
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new UsageError(
        `The API URL ${JSON.stringify(settings.apiUrl)} (from ${sourceLabel(settings.apiUrlSource, 'url', settings.configPath)}) is not an http(s) URL.`,
      )
    }
    return settings
  }

  override async catch(err: Error & { exitCode?: number }): Promise<unknown> {
    // our own this.exit(n): the output is already written
    if (isExit(err)) throw err
    const failure = describeFailure(err, this.failureContext)
    if (this.json) process.stdout.write(`${JSON.stringify(failure.envelope, null, 2)}\n`)
    else process.stderr.write(`${failure.line}\n`)
    if (process.env.DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`)
    return this.exit(failure.exitCode)
  }
}

export function sourceLabel(source: Source, what: 'url' | 'key', configPath: string): string {
  switch (source) {
    case 'flag':
      return what === 'url' ? '--api-url' : '--api-key'
    case 'env':
      return what === 'url' ? 'SITEHEALTH_API_URL' : 'SITEHEALTH_API_KEY'
    case 'config':
      return `the config file ${configPath}`
    default:
      return 'the default'
  }
}

/** Commands that call the public API: --api-url, --api-key, --json. */
export abstract class ClientCommand<T extends typeof Command> extends SitehealthCommand<T> {
  static override baseFlags = clientFlags

  protected async client(): Promise<SitehealthClient> {
    const f = this.flags as { 'api-url'?: string; 'api-key'?: string }
    const settings = await this.settings({ apiUrl: f['api-url'], apiKey: f['api-key'] })
    if (settings.apiKey)
      this.failureContext.apiKeyFrom = sourceLabel(settings.apiKeySource, 'key', settings.configPath)
    return new SitehealthClient({
      baseUrl: settings.apiUrl,
      apiKey: settings.apiKey,
      timeoutMs: this.timeoutMs,
      maxRetryWaitSeconds: MAX_RATE_LIMIT_WAIT_SECONDS,
      onRateLimitWait: this.onRateLimitWait,
    })
  }
}

/** Admin commands: --api-url, --json, --admin-token, --data-dir. */
export abstract class AdminCommand<T extends typeof Command> extends SitehealthCommand<T> {
  static override baseFlags = adminFlags

  protected async adminClient(): Promise<{ client: SitehealthClient; settings: ClientSettings }> {
    const f = this.flags as { 'api-url'?: string; 'admin-token'?: string; 'data-dir'?: string }
    const settings = await this.settings({ apiUrl: f['api-url'] })
    const dataDir = f['data-dir'] ?? this.config.dataDir
    this.failureContext.authHint = f['admin-token']
      ? 'Check the admin token (--admin-token or SITEHEALTH_ADMIN_TOKEN).'
      : `Check the admin token: the server's SITEHEALTH_ADMIN_TOKEN or its <data-dir>/admin-token (read from ${dataDir}).`
    const adminToken = await resolveAdminToken({ flag: f['admin-token'], apiUrl: settings.apiUrl, dataDir })
    const client = new SitehealthClient({
      baseUrl: settings.apiUrl,
      adminToken,
      timeoutMs: this.timeoutMs,
      maxRetryWaitSeconds: MAX_RATE_LIMIT_WAIT_SECONDS,
      onRateLimitWait: this.onRateLimitWait,
    })
    return { client, settings }
  }
}
