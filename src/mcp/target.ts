/**
 * The URL a tool is given, read by the one rule of contract/target-url.ts that `check` and
 * `monitors create` follow: a bare host (example.com, 127.0.0.1:8000) means https, and the
 * answer says so; when that https attempt finds no site, the error says how to ask for http.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { ApiError } from '../client/client.js'
import { plainHttpHint, readTargetUrl } from '../contract/index.js'

export function toolTarget(
  url: string,
  fail: (err: unknown) => CallToolResult,
): { url: string; note: string; plainHttp?: string; refused?: undefined } | { refused: CallToolResult } {
  const read = readTargetUrl(url)
  if ('problem' in read) return { refused: fail(new ApiError(400, 'invalid_url', `${read.problem}.`)) }
  return { url: read.url, note: read.note ? `${read.note}. ` : '', plainHttp: read.plainHttp }
}

export function withHttpHint(err: unknown, plainHttp: string | undefined): unknown {
  if (
    !(err instanceof ApiError) ||
    err.code !== 'check_failed' ||
    !plainHttp ||
    err.message.includes(plainHttp)
  )
    return err
  return new ApiError(
    err.status,
    err.code,
    `${err.message} ${plainHttpHint(plainHttp)}.`,
    err.requestId,
    err.retryAfter,
  )
}
