/** Errors the CLI raises itself, before or instead of asking the API. */

/** The command line cannot work as given (no URL, unreadable --file, a bad flag). Exit 2. */
export class UsageError extends Error {
  override readonly name: string = 'UsageError'
  readonly code: string = 'usage_error'
}

/** A URL the CLI refuses before asking the API: the API's own code for it, so scripts see one. */
export class InvalidUrlError extends UsageError {
  override readonly name = 'InvalidUrlError'
  override readonly code = 'invalid_url'
}
