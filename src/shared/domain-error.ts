/**
 * The one error the services raise for what a user can fix or must be told (docs/architecture.md,
 * "One application layer"): it says what kind of refusal it is, never how it is shown. The API maps
 * it to the envelope (http/errors.ts `fromDomainError`, for every route in server/app.ts), the
 * dashboard to a page (its kit); neither re-checks what the service checked.
 */
export type DomainErrorKind = 'not_found' | 'invalid' | 'conflict' | 'forbidden' | 'rate_limited'

export interface DomainErrorDetails {
  /** A finer reason than the kind (`weak_password`, `throttled`…); the kind when not given. */
  code?: string
  /** The input field at fault (`ends_at`, `monitor_ids`…), for `invalid`. */
  field?: string
  /** What was being read (`monitor`, `maintenance window`): the API words its 400 with it. */
  subject?: string
  /** How long to wait before trying again, seconds (a throttled sign-in, `rate_limited`). */
  retryAfterSec?: number
}

export class DomainError extends Error {
  override readonly name = 'DomainError'
  readonly code: string
  readonly field?: string
  readonly subject?: string
  readonly retryAfterSec?: number

  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    details: DomainErrorDetails = {},
  ) {
    super(message)
    this.code = details.code ?? kind
    this.field = details.field
    this.subject = details.subject
    this.retryAfterSec = details.retryAfterSec
  }
}

/** The parts of a zod schema `validInput` reads: shared/ imports no library and no other folder. */
export interface InputSchema<T> {
  safeParse(
    x: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } }
}

/**
 * Input checked against a contract schema: its value, or DomainError `invalid` with the first
 * problem, the field it names (absent when it is the whole input) and what was being read.
 */
export function validInput<T>(schema: InputSchema<T>, input: unknown, subject: string): T {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue.path.map(String).join('.')
  throw new DomainError('invalid', issue.message, { subject, ...(field ? { field } : {}) })
}
