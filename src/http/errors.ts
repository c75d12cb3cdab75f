/**
 * The server's one error type (h3's single-error idea): routes throw it, the app's onError hook
 * renders it as the spec's envelope. Anything else thrown becomes internal_error, never a stack.
 */
import type { ErrorCode } from '../contract/schemas.js'
import type { DomainError } from '../shared/index.js'

export class ServiceError extends Error {
  override readonly name = 'ServiceError'
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new ServiceError(400, 'invalid_url', message)
export const conflict = (message: string) => new ServiceError(409, 'conflict', message)
export const notFound = (message = 'Not found.') => new ServiceError(404, 'not_found', message)
/** How long a client should wait after a dependency outage: a blip or a failover takes seconds. */
export const UNAVAILABLE_RETRY_AFTER_SEC = 5

export const serviceUnavailable = (message: string) =>
  new ServiceError(503, 'service_unavailable', message, {
    'retry-after': String(UNAVAILABLE_RETRY_AFTER_SEC),
  })

export const internalError = () =>
  new ServiceError(500, 'internal_error', 'Something went wrong on our side. Please try again in a moment.')

/**
 * A service's refusal (shared/domain-error.ts) as the envelope, for every API route at once
 * (server/app.ts): not_found 404, conflict 409, rate_limited 429 with Retry-After, invalid (and forbidden, which no API route raises
 * as such) 400. An input document's refusal names what was read and the field at fault.
 */
export function fromDomainError(err: DomainError): ServiceError {
  const headers = err.retryAfterSec !== undefined ? { 'retry-after': String(err.retryAfterSec) } : undefined
  if (err.kind === 'not_found') return new ServiceError(404, 'not_found', err.message, headers)
  if (err.kind === 'conflict') return new ServiceError(409, 'conflict', err.message, headers)
  if (err.kind === 'rate_limited')
    return new ServiceError(429, 'rate_limited', err.message, {
      'retry-after': String(err.retryAfterSec ?? 1),
    })
  const message =
    err.subject && err.field ? `Invalid ${err.subject} (${err.field}): ${err.message}` : err.message
  return new ServiceError(400, 'invalid_url', message, headers)
}
