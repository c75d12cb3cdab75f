/**
 * Every failure as the spec's envelope: our own errors pass through, services' refusals are mapped
 * once, h3's become the nearest code, a dependency that is down is "try again shortly", anything
 * else is internal_error (logged with its stack, never answered with it). The app's error hook and
 * routes that answer several results in one body (run-batch) both render through here.
 */
import { HTTPError } from 'h3'
import type { ErrorEnvelope } from '../contract/schemas.js'
import type { ServerOptions } from './context.js'
import {
  ServiceError,
  badRequest,
  fromDomainError,
  internalError,
  serviceUnavailable,
} from '../http/errors.js'
import { DomainError } from '../shared/index.js'
import { unavailableDependency, unavailableMessage } from '../store/unavailable.js'

/** On every API response: answers are per key and per moment, and never to be sniffed. */
export const SAFETY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
}
export const BASE_HEADERS = { 'content-type': 'application/json; charset=utf-8', ...SAFETY_HEADERS }

/**
 * 5xx answers that are expected outcomes, with the level their one log line carries: the target
 * did not answer (DNS, refused, TLS, timeout: 502 check_failed), or the check slots were all taken
 * (503 server_busy). Everything else 5xx is a fault of ours, logged with its stack.
 */
const EXPECTED_FAILURES: Readonly<Record<string, 'info' | 'warn'>> = {
  check_failed: 'info',
  server_busy: 'warn',
}

/** Any failure as the envelope's status, headers and JSON body; 5xx causes go to the log. */
export function renderError(
  error: unknown,
  requestId: string,
  opts: ServerOptions,
): { status: number; headers: Record<string, string>; body: string } {
  const { e, envelope } = envelopeOf(error, requestId, opts)
  return { status: e.status, headers: { ...BASE_HEADERS, ...e.headers }, body: JSON.stringify(envelope) }
}

/** A failure as its envelope (and the error it maps to); 5xx causes go to the log. */
export function envelopeOf(
  error: unknown,
  requestId: string,
  opts: ServerOptions,
): { e: ServiceError; envelope: ErrorEnvelope } {
  const e = toServiceError(error)
  const cause = (error as HTTPError)?.cause ?? error
  const expected = EXPECTED_FAILURES[e.code]
  if (expected && opts.log)
    // a site that does not answer, or every check slot taken, is an outcome, not a bug: one line
    opts.log(`${expected} ${requestId}: ${e.code}: ${e.message.split('\n')[0]}`)
  else if (e.code === 'service_unavailable' && opts.log)
    // an outage is not a bug: one line with the driver's reason, no stack
    opts.log(`unavailable ${requestId}: ${String((cause as Error)?.message ?? cause).split('\n')[0]}`)
  else if (e.status >= 500 && opts.log)
    opts.log(`error ${requestId}: ${(cause as Error)?.stack ?? String(cause)}`)
  return { e, envelope: { ok: false, error: { code: e.code, message: e.message, request_id: requestId } } }
}

/** Our own errors pass through, services' refusals are mapped; h3's become the nearest envelope code; anything else is internal_error. */
function toServiceError(error: unknown): ServiceError {
  const cause = error instanceof HTTPError ? error.cause : undefined
  if (cause instanceof ServiceError) return cause
  if (error instanceof ServiceError) return error
  // a service's refusal: one mapping for every route (http/errors.ts)
  if (cause instanceof DomainError) return fromDomainError(cause)
  if (error instanceof DomainError) return fromDomainError(error)
  if (error instanceof HTTPError && !error.unhandled) {
    if (error.status === 404)
      return new ServiceError(404, 'not_found', 'No such route. See /docs for the API.')
    if (error.status === 405) return new ServiceError(405, 'method_not_allowed', 'Method not allowed.')
    if (error.status === 413) return badRequest('The request body is too large.')
    if (error.status >= 400 && error.status < 500)
      return badRequest('Bad request: the URL or body is malformed.')
  }
  // a dependency that is down or silent is "try again shortly", never a bug (docs/decisions.md#faults)
  const dep = unavailableDependency(cause ?? error)
  if (dep) return serviceUnavailable(unavailableMessage(dep))
  return internalError()
}
