/**
 * The server's one error type (h3's single-error idea): routes throw it, the app's onError hook
 * renders it as the spec's envelope. Anything else thrown becomes internal_error, never a stack.
 */
import type { ErrorCode } from '../contract/schemas.js'

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
