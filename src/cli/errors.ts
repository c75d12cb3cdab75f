/** Errors the CLI raises itself, before or instead of asking the API. */

/** The command line cannot work as given (no URL, unreadable --file, a bad flag). Exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
  readonly code = 'usage_error'
}
