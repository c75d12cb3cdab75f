/**
 * The server's log of failed requests (issue 21): a target that does not answer (check_failed) or
 * a full set of check slots (server_busy) is an expected outcome: one line with its level and the
 * request id, no stack. A fault of ours stays an error with its stack.
 */
import { describe, expect, it } from 'vitest'
import { renderError } from '../../src/server/app.js'
import type { ServerOptions } from '../../src/server/context.js'
import { ServiceError } from '../../src/http/errors.js'

function logged(err: unknown): string[] {
  const lines: string[] = []
  renderError(err, 'req-1', { log: (l: string) => lines.push(l) } as unknown as ServerOptions)
  return lines
}

describe('renderError logging', () => {
  it('logs a target failure as one info line with the request id', () => {
    const lines = logged(
      new ServiceError(502, 'check_failed', 'Could not resolve nowhere.test: no such host.'),
    )
    expect(lines).toEqual(['info req-1: check_failed: Could not resolve nowhere.test: no such host.'])
  })

  it('logs busy check slots as one warn line', () => {
    const lines = logged(
      new ServiceError(503, 'server_busy', 'All check slots are taken; nothing was charged.'),
    )
    expect(lines).toEqual(['warn req-1: server_busy: All check slots are taken; nothing was charged.'])
  })

  it('keeps a real internal error at error, with its stack', () => {
    const [line, ...rest] = logged(new Error('boom'))
    expect(rest).toEqual([])
    expect(line).toMatch(/^error req-1: Error: boom\n\s+at /)
  })

  it('logs nothing for a client error', () => {
    expect(logged(new ServiceError(400, 'invalid_url', 'Bad URL.'))).toEqual([])
  })
})
