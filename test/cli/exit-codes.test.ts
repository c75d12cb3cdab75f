import { Errors } from '@oclif/core'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/client/client.js'
import { UsageError } from '../../src/cli/errors.js'
import { describeFailure, EXIT, EXIT_CODE_BY_ERROR, exitCodeFor } from '../../src/cli/exit-codes.js'
import { ERROR_CODES } from '../../src/contract/index.js'

const api = (code: string, status = 400, message = 'm', requestId?: string, retryAfter?: number) =>
  new ApiError(status, code, message, requestId, retryAfter)

describe('exit code table (docs/decisions.md#the-cli-surface)', () => {
  it.each([
    ['invalid_url', 400, 2],
    ['not_found', 404, 2],
    ['invalid_api_key', 401, 4],
    ['revoked_api_key', 401, 4],
    ['no_api_key', 0, 4],
    ['insufficient_credits', 402, 5],
    ['rate_limited', 429, 6],
    ['check_failed', 502, 7],
    ['timeout', 0, 1],
    ['internal_error', 500, 1],
    ['network_error', 0, 1],
    ['invalid_response', 200, 1],
    ['method_not_allowed', 405, 1],
    ['server_busy', 503, 1],
    ['service_unavailable', 503, 1],
  ])('%s (HTTP %i) exits %i', (code, status, exit) => {
    expect(exitCodeFor(api(code, status))).toBe(exit)
  })

  it('maps every code the API can send', () => {
    for (const code of ERROR_CODES) expect(EXIT_CODE_BY_ERROR[code], code).toBeDefined()
  })

  it('judges unknown codes by their HTTP status', () => {
    expect(exitCodeFor(api('http_403', 403))).toBe(EXIT.auth)
    expect(exitCodeFor(api('payment', 402))).toBe(EXIT.insufficientCredits)
    expect(exitCodeFor(api('slow_down', 429))).toBe(EXIT.rateLimited)
    expect(exitCodeFor(api('bad', 422))).toBe(EXIT.usage)
    expect(exitCodeFor(api('http_503', 503))).toBe(EXIT.failure)
  })

  it('usage errors, oclif parse errors and anything else', () => {
    expect(exitCodeFor(new UsageError('no URL'))).toBe(2)
    expect(exitCodeFor(new Errors.CLIError('Nonexistent flag: --bogus', { exit: 2 }))).toBe(2)
    expect(exitCodeFor(new TypeError('boom'))).toBe(1)
    expect(exitCodeFor('a string')).toBe(1)
  })
})

describe('describeFailure', () => {
  it('gives the API envelope for --json and one line for people', () => {
    const f = describeFailure(api('invalid_url', 400, 'The URL must use http or https.', 'req-1'))
    expect(f.exitCode).toBe(2)
    expect(f.envelope).toEqual({
      ok: false,
      error: { code: 'invalid_url', message: 'The URL must use http or https.', request_id: 'req-1' },
    })
    expect(f.line).toBe('Error: The URL must use http or https.')
  })

  it('says what to do about a missing key: login, or the three ways to give one', () => {
    const f = describeFailure(
      api(
        'no_api_key',
        0,
        'No API key: sign in with `sitehealth login` (it saves a key approved in the dashboard), or pass --api-key, set SITEHEALTH_API_KEY or save one with `sitehealth config set api-key KEY`.',
      ),
    )
    expect(f.line).toMatch(/`sitehealth login`/)
    expect(f.line).toMatch(/--api-key/)
    expect(f.line).toMatch(/SITEHEALTH_API_KEY/)
    expect(f.line).toMatch(/config set api-key/)
  })

  it('points at where a refused key came from', () => {
    const f = describeFailure(api('invalid_api_key', 401, 'Invalid API key.'), {
      apiKeyFrom: 'SITEHEALTH_API_KEY',
    })
    expect(f.line).toBe(
      'Error: Invalid API key. Check the key given by SITEHEALTH_API_KEY, or save a valid one with `sitehealth config set api-key KEY`.',
    )
  })

  it('names the API URL when the server cannot be reached', () => {
    const f = describeFailure(api('network_error', 0, 'Cannot reach http://127.0.0.1:1: ECONNREFUSED'), {
      apiUrl: 'http://127.0.0.1:1',
    })
    expect(f.exitCode).toBe(1)
    expect(f.line).toMatch(/Is the server running\? The API URL is http:\/\/127\.0\.0\.1:1/)
  })

  it('tells how long a rate limit would have needed', () => {
    expect(describeFailure(api('rate_limited', 429, 'Too many requests.', undefined, 300)).line).toMatch(
      /300 s/,
    )
  })

  it('uses the command hint for not_found', () => {
    const f = describeFailure(api('not_found', 404, 'No check with this id.'), {
      notFoundHint: 'Try `sitehealth recent`.',
    })
    expect(f.line).toBe('Error: No check with this id. Try `sitehealth recent`.')
  })

  it('makes oclif parse errors one line with a usage envelope', () => {
    const err = new Errors.CLIError(
      'Missing 1 required arg:\nid  Id of the check\nSee more help with --help',
      { exit: 2 },
    )
    const f = describeFailure(err)
    expect(f.exitCode).toBe(2)
    expect(f.envelope.error.code).toBe('usage_error')
    expect(f.line).toBe('Error: Missing 1 required arg: id (see --help)')
    expect(f.line).not.toMatch(/\n/)
  })

  it('never says the same advice twice (the server ends its message with advice of its own)', () => {
    const revoked = describeFailure(
      api('revoked_api_key', 401, 'This API key has been revoked. Create a new key to continue.'),
    )
    expect(revoked.line).toBe(
      'Error: This API key has been revoked. Get a new key (an admin runs `sitehealth keys create`) and save it with `sitehealth config set api-key KEY`.',
    )
    expect(revoked.line).not.toMatch(/to continue/)
    const credits = describeFailure(
      api(
        'insufficient_credits',
        402,
        'Not enough credits to run a check. Ask your administrator for more credits.',
      ),
    )
    expect(credits.line.match(/Ask/g)).toHaveLength(1)
    expect(credits.line).toMatch(/^Error: Not enough credits to run a check\. Ask the administrator/)
  })

  it('hints at --allow-private-targets for a blocked target, by where the server runs', () => {
    const blocked = api(
      'invalid_url',
      400,
      'Blocked for safety: intranet.example resolves to a private address',
    )
    expect(describeFailure(blocked, { apiUrl: 'http://127.0.0.1:8787' }).line).toMatch(
      /restart it with `sitehealth serve --allow-private-targets`/,
    )
    expect(describeFailure(blocked, { apiUrl: 'https://health.example.com' }).line).toMatch(
      /If you run this server yourself, `sitehealth serve --allow-private-targets`/,
    )
    expect(describeFailure(api('invalid_url', 400, 'The URL is empty')).line).toBe('Error: The URL is empty')
    // a message ending in a parenthesis still gets its full stop before the hint
    const paren = api('invalid_url', 400, 'Blocked for safety: 127.0.0.1 is a loopback address (127.0.0.0/8)')
    expect(describeFailure(paren, { apiUrl: 'http://127.0.0.1:8787' }).line).toMatch(
      /\(127\.0\.0\.0\/8\)\. To check/,
    )
  })

  it('explains an API URL with a path the server does not serve', () => {
    const f = describeFailure(api('not_found', 404, 'No such route. See /docs for the API.'), {
      apiUrl: 'https://health.example.com/sitehealth',
    })
    expect(f.line).toMatch(/give the deployment's base URL \(like https:\/\/health\.example\.com\)/)
  })

  it('a timeout says how to wait longer', () => {
    const f = describeFailure(api('timeout', 0, 'No answer from http://x within 5 s.'))
    expect(f.exitCode).toBe(1)
    expect(f.line).toMatch(/--timeout/)
  })

  it('never leaks a stack for unexpected errors, and says how to get one', () => {
    const f = describeFailure(new Error('kaboom\n    at foo (/x.js:1:1)'))
    expect(f.exitCode).toBe(1)
    expect(f.envelope.error.code).toBe('unexpected_error')
    expect(f.line).not.toMatch(/\n/)
    expect(f.line).toMatch(/DEBUG=1/)
  })
})
