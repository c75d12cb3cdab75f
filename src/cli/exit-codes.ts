/**
 * Error -> exit code: the one table (DESIGN.md §2), applied by the base command's `catch`.
 * Scripts branch on these numbers, so each one means one kind of failure a caller can act on.
 */
import { stripVTControlCharacters } from 'node:util'
import { ApiError } from '../client/client.js'
import { UsageError } from './errors.js'

export const EXIT = {
  ok: 0,
  /** Unexpected or server-side failure: 5xx, check_failed, network, not a sitehealth API. */
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
} as const

/**
 * By error code (the API's codes of spec §7 and DESIGN.md §3, plus the client's own).
 * `not_found` is 2: the id the user typed (`get ID`, `keys revoke ID`) names nothing they can see,
 * which is an input problem, not a server fault. `check_failed` is 1: the server could not reach
 * the target (502), so no result exists to judge.
 */
export const EXIT_CODE_BY_ERROR: Readonly<Record<string, number>> = {
  usage_error: EXIT.usage,
  invalid_url: EXIT.usage,
  not_found: EXIT.usage,
  invalid_api_key: EXIT.auth,
  revoked_api_key: EXIT.auth,
  no_api_key: EXIT.auth,
  insufficient_credits: EXIT.insufficientCredits,
  rate_limited: EXIT.rateLimited,
  check_failed: EXIT.failure,
  internal_error: EXIT.failure,
  method_not_allowed: EXIT.failure,
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

function hintFor(err: ApiError, ctx: FailureContext): string | undefined {
  const bin = ctx.bin ?? 'sitehealth'
  switch (err.code) {
    case 'invalid_api_key':
      if (ctx.authHint) return ctx.authHint
      return ctx.apiKeyFrom
        ? `Check the key given by ${ctx.apiKeyFrom}, or create one with \`${bin} keys create --save\`.`
        : `Check the key, or create one with \`${bin} keys create --save\`.`
    case 'revoked_api_key':
      if (ctx.authHint) return ctx.authHint
      return `This key was revoked: create a new one with \`${bin} keys create --save\`.`
    case 'insufficient_credits':
      return `Ask the administrator to add credits (\`${bin} credits grant --user USER --amount N\`); \`${bin} credits\` shows the balance.`
    case 'rate_limited':
      return err.retryAfter !== undefined
        ? `The server asks to wait ${err.retryAfter} s, longer than this command waits: try again later.`
        : 'Try again later.'
    case 'network_error':
      return `Is the server running? The API URL is ${ctx.apiUrl ?? 'unknown'} (set it with --api-url or SITEHEALTH_API_URL).`
    case 'invalid_response':
      return `Check --api-url / SITEHEALTH_API_URL (now ${ctx.apiUrl ?? 'unknown'}).`
    case 'not_found':
      return ctx.notFoundHint
    case 'internal_error':
    case 'check_failed':
      return err.requestId ? `(request id ${err.requestId})` : undefined
    default:
      return undefined
  }
}

/** Turn any error into its exit code, its `--json` envelope and its one line for people. */
export function describeFailure(err: unknown, ctx: FailureContext = {}): Failure {
  const exitCode = exitCodeFor(err)
  if (err instanceof ApiError) {
    const message = oneLine(err.message)
    const hint = hintFor(err, ctx)
    return {
      exitCode,
      envelope: err.toEnvelope(),
      line: `Error: ${message}${hint ? ` ${hint}` : ''}`,
    }
  }
  const isUsage = err instanceof UsageError || oclifExit(err) !== undefined
  const message =
    err instanceof Error ? (isUsage ? usageMessage(err) : oneLine(err.message)) : oneLine(String(err))
  const code = isUsage ? 'usage_error' : 'unexpected_error'
  return {
    exitCode,
    envelope: { ok: false, error: { code, message } },
    line:
      `Error: ${message || 'unexpected failure'}` +
      (isUsage ? (err instanceof UsageError ? '' : ' (see --help)') : ' (set DEBUG=1 for details)'),
  }
}
