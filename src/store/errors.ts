/** Errors every backend throws the same way, so callers can tell them apart. */

export class StoreClosedError extends Error {
  constructor() {
    super('The store is closed.')
    this.name = 'StoreClosedError'
  }
}

export class InsufficientCreditsError extends Error {
  constructor(userId: string) {
    super(`User ${userId} has no credit left to save a check.`)
    this.name = 'InsufficientCreditsError'
  }
}

export function assertCount(name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${n}`)
}

/** A database problem that the operator must fix: its message is one line, fit to print as is. */
export class DatabaseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'DatabaseError'
  }
}

export class DuplicateEmailError extends Error {
  constructor(email: string) {
    super(`An account with the email ${email} already exists.`)
    this.name = 'DuplicateEmailError'
  }
}

/** Another monitor of the same user already carries this ref (refs are unique per user). */
export class DuplicateRefError extends Error {
  constructor(readonly ref: string) {
    super(`Another of your monitors already has the ref "${ref}".`)
    this.name = 'DuplicateRefError'
  }
}

/** The user has as many monitors as they may (the cap given to createMonitor): nothing was written. */
export class MonitorLimitError extends Error {
  constructor(readonly max: number) {
    super(`The account already has ${max} monitors, the most it may have.`)
    this.name = 'MonitorLimitError'
  }
}
