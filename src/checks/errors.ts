/**
 * The engine's one error type. `invalid_url`: the URL is malformed, unsupported or blocked for
 * safety (at any stage, redirects included). `check_failed`: no useful result could be made
 * (DNS failure, refused connection, timeout, impossible TLS). The message is safe to show a user.
 */
export type CheckErrorCode = 'invalid_url' | 'check_failed'

export class CheckError extends Error {
  override readonly name = 'CheckError'
  constructor(
    readonly code: CheckErrorCode,
    message: string,
    /** For the server's log only, never for the caller (e.g. the address a blocked name resolved to). */
    readonly detail?: string,
  ) {
    super(message)
  }
}

/** A message as the caller reads it: one sentence, ending with its full stop. */
export const asSentence = (message: string) =>
  /[.!?]$/.test(message.trimEnd()) ? message : `${message.trimEnd()}.`

export const invalidUrl = (reason: string, detail?: string) => new CheckError('invalid_url', reason, detail)
export const checkFailed = (reason: string, detail?: string) => new CheckError('check_failed', reason, detail)
