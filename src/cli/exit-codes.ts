/**
 * Error -> exit code: the one table (docs/decisions.md#the-cli-surface), applied by the base command's `catch`.
 * Scripts branch on these numbers, so each one means one kind of failure a caller can act on.
 */
import { stripVTControlCharacters } from 'node:util'
import { ApiError } from '../client/client.js'
import { isLoopbackUrl } from './admin-token.js'
import { UsageError } from './errors.js'

export const EXIT = {
  ok: 0,
  /** The checker failed: the API is unreachable, timed out, answered 5xx or is not a sitehealth API. */
  failure: 1,
  /** The command line or its input is wrong: bad flags, invalid_url, an unknown id. */
  usage: 2,
  /** A check scored below --fail-under. */
  belowThreshold: 3,
  /** No key, a malformed key, an unknown or revoked key, a missing or wrong admin token. */
  auth: 4,
  insufficientCredits: 5,
  /** 429 and waiting out Retry-After was not possible (longer than the client will wait). */
  rateLimited: 6,
  /**
   * The target site could not be reached (check_failed: DNS, refused, timeout, no TLS), so a CI
   * gate can tell "my site is down" (7, or 3 under --fail-under, where it counts as score 0) from
   * "the checker is down" (1).
   */
  targetDown: 7,
  /** Ctrl-C: 128 + SIGINT, as shells report it; a request already sent may still complete. */
  interrupted: 130,
} as const

/**
 * By error code (the API's codes of docs/decisions.md#api-open-points, plus the client's own).
 * `not_found` is 2: the id the user typed (`get ID`, `keys revoke ID`) names nothing they can see,
 * which is an input problem, not a server fault. `check_failed` is 7: the API works, the target
 * site does not answer.
 */
export const EXIT_CODE_BY_ERROR: Readonly<Record<string, number>> = {
  usage_error: EXIT.usage,
  invalid_url: EXIT.usage,
  not_found: EXIT.usage,
  /** 409: a name the user chose (a monitor ref) is taken: fix the input. */
  conflict: EXIT.usage,
  invalid_api_key: EXIT.auth,
  revoked_api_key: EXIT.auth,
  no_api_key: EXIT.auth,
  insufficient_credits: EXIT.insufficientCredits,
  rate_limited: EXIT.rateLimited,
  check_failed: EXIT.targetDown,
  timeout: EXIT.failure,
  internal_error: EXIT.failure,
  method_not_allowed: EXIT.failure,
  /** 503: every check slot stayed taken (docs/decisions.md#monitors-and-alerts); nothing was charged, retry later. */
  server_busy: EXIT.failure,
  /** 503: a dependency of the server (database, Redis, disk) is down or silent (docs/decisions.md#faults); retry later. */
  service_unavailable: EXIT.failure,
  network_error: EXIT.failure,
  invalid_response: EXIT.failure,
}

/** For a code the table does not know (another deployment's, or `http_NNN`): judge by status. */
function exitCodeForStatus(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth
  if (status === 402) return EXIT.insufficientCredits
  if (status === 429) return EXIT.rateLimited
  if (status === 400 || status === 404 || status === 422) return EXIT.usage
  return EXIT.failure
}

/** oclif's own parse errors (unknown flag, missing arg, bad option) carry `oclif.exit` (2). */
function oclifExit(err: unknown): number | undefined {
  const exit = (err as { oclif?: { exit?: unknown } } | null)?.oclif?.exit
  return typeof exit === 'number' ? exit : undefined
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof ApiError) return EXIT_CODE_BY_ERROR[err.code] ?? exitCodeForStatus(err.status)
  if (err instanceof UsageError) return EXIT.usage
  const exit = oclifExit(err)
  if (exit !== undefined) return exit === 0 ? EXIT.usage : exit
  return EXIT.failure
}

export interface Failure {
  exitCode: number
  /** What `--json` prints: the API's error envelope, or one of the same shape for local errors. */
  envelope: { ok: false; error: { code: string; message: string; request_id?: string } }
  /** What a person sees on stderr: one line, what went wrong and what to do. */
  line: string
}

export interface FailureContext {
  /** The CLI's name, for suggested commands. */
  bin?: string
  apiUrl?: string
  /** Where the API key came from, to point at it when it is wrong. */
  apiKeyFrom?: string
  /** What to suggest when the credential is refused, instead of the API-key advice (admin commands). */
  authHint?: string
  /** What to suggest when an id is not found (depends on the command). */
  notFoundHint?: string
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim()

/** Codes whose hint is advice that replaces the server's own. */
const ADVISED = new Set(['invalid_api_key', 'revoked_api_key', 'insufficient_credits', 'rate_limited'])

/** Up to and including the first sentence's full stop. */
export function firstSentence(s: string): string {
  const m = /^.*?[.!?](?=\s+[A-Z(`]|$)/.exec(s)
  return m ? m[0] : s
}

/** oclif parse messages are several lines ending in "See more help with --help": make one. */
function usageMessage(err: Error): string {
  const [first = '', ...rest] = stripVTControlCharacters(err.message)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^See more help with/i.test(l))
  // "Missing 1 required arg:" is followed by "name  description" lines: keep the names
  if (/^Missing .*:$/.test(first))
    return oneLine(`${first} ${rest.map((l) => /^(\S+)\s{2,}/.exec(l)?.[1] ?? l).join(', ')}`)
  return oneLine([first, ...rest].join(' '))
}

/** An intranet or local target refused by the server's SSRF guard. */
export function isBlockedTarget(err: ApiError): boolean {
  return err.code === 'invalid_url' && /blocked for safety/i.test(err.message)
}

function hintFor(err: ApiError, ctx: FailureContext): string | undefined {
  const bin = ctx.bin ?? 'sitehealth'
  switch (err.code) {
    case 'invalid_url':
      if (!isBlockedTarget(err)) return undefined
      // the CLI, not the guard, says this: only the CLI knows whether the server is the user's own
      return ctx.apiUrl && isLoopbackUrl(ctx.apiUrl)
        ? `To check intranet or local sites with your own server, restart it with \`${bin} serve --allow-private-targets\`.`
        : `If you run this server yourself, \`${bin} serve --allow-private-targets\` allows intranet and local sites.`
    case 'invalid_api_key':
      if (ctx.authHint) return ctx.authHint
      return `Check the key${ctx.apiKeyFrom ? ` given by ${ctx.apiKeyFrom}` : ''}, or save a valid one with \`${bin} config set api-key KEY\`.`
    case 'revoked_api_key':
      if (ctx.authHint) return ctx.authHint
      return `Get a new key (an admin runs \`${bin} keys create\`) and save it with \`${bin} config set api-key KEY\`.`
    case 'insufficient_credits':
      return `Ask the administrator to add credits (\`${bin} credits grant --user USER --amount N\`); \`${bin} credits\` shows the balance.`
    case 'rate_limited':
      return err.retryAfter !== undefined
        ? `The server asks to wait ${err.retryAfter} s, longer than this command waits: try again later.`
        : 'Try again later.'
    case 'network_error':
      return `Is the server running? The API URL is ${ctx.apiUrl ?? 'unknown'} (set it with --api-url, SITEHEALTH_API_URL or \`${bin} config set api-url URL\`).`
    case 'timeout':
      return `Is the server overloaded or hung? Wait longer with --timeout SECONDS (or SITEHEALTH_TIMEOUT).`
    case 'invalid_response':
      return `Check --api-url / SITEHEALTH_API_URL (now ${ctx.apiUrl ?? 'unknown'}).`
    case 'not_found':
      if (/no such route/i.test(err.message) && ctx.apiUrl && new URL(ctx.apiUrl).pathname.length > 1)
        return `The API URL ${ctx.apiUrl} has a path this server does not serve: give the deployment's base URL (like ${new URL(ctx.apiUrl).origin}).`
      return ctx.notFoundHint
    case 'check_failed':
      return `The site did not answer; nothing was charged.${err.requestId ? ` (request id ${err.requestId})` : ''}`
    case 'service_unavailable':
      return `Try again in ${err.retryAfter ?? 'a few'} s; nothing was charged.`
    case 'internal_error':
      return err.requestId ? `(request id ${err.requestId})` : undefined
    default:
      return undefined
  }
}

/** Turn any error into its exit code, its `--json` envelope and its one line for people. */
export function describeFailure(err: unknown, ctx: FailureContext = {}): Failure {
  const exitCode = exitCodeFor(err)
  if (err instanceof ApiError) {
    const hint = hintFor(err, ctx)
    // the server's message may end in advice of its own ("Create a new key to continue."): with a
    // hint of ours, keep only its first sentence, so the line never says the same thing twice
    const message = hint && ADVISED.has(err.code) ? firstSentence(oneLine(err.message)) : oneLine(err.message)
    return {
      exitCode,
      envelope: err.toEnvelope(),
      line: `Error: ${message}${hint ? `${/[.!?]$/.test(message) ? '' : '.'} ${hint}` : ''}`,
    }
  }
  const isUsage = err instanceof UsageError || oclifExit(err) !== undefined
  const message =
    err instanceof Error ? (isUsage ? usageMessage(err) : oneLine(err.message)) : oneLine(String(err))
  const code = err instanceof UsageError ? err.code : isUsage ? 'usage_error' : 'unexpected_error'
  return {
    exitCode,
    envelope: { ok: false, error: { code, message } },
    line:
      `Error: ${message || 'unexpected failure'}` +
      (isUsage ? (err instanceof UsageError ? '' : ' (see --help)') : ' (set DEBUG=1 for details)'),
  }
}
