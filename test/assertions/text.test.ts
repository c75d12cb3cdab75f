import { describe, expect, it } from 'vitest'
import {
  AssertionSyntaxError,
  describeAssertion,
  describeResult,
  parseAssertion,
} from '../../src/assertions/index.js'

describe('parseAssertion', () => {
  it('reads SOURCE COMPARISON TARGET, with numbers for numeric sources', () => {
    expect(parseAssertion('status_code equals 200')).toEqual({
      source: 'status_code',
      comparison: 'equals',
      target: 200,
    })
    expect(parseAssertion('response_time less_than 800')).toMatchObject({ target: 800 })
  })

  it('reads a property for json_body and header, and keeps text targets with spaces', () => {
    expect(parseAssertion('json_body $.status equals ok')).toEqual({
      source: 'json_body',
      property: '$.status',
      comparison: 'equals',
      target: 'ok',
    })
    expect(parseAssertion('text_body contains Welcome back, friend')).toMatchObject({
      target: 'Welcome back, friend',
    })
    expect(parseAssertion('header x-frame-options equals "DENY"')).toMatchObject({
      property: 'x-frame-options',
      target: 'DENY',
    })
    expect(parseAssertion('json_body $.items not_empty')).toEqual({
      source: 'json_body',
      property: '$.items',
      comparison: 'not_empty',
    })
  })

  it('refuses what it cannot read, saying why', () => {
    expect(() => parseAssertion('body contains x')).toThrow(AssertionSyntaxError)
    expect(() => parseAssertion('status_code is 200')).toThrow(/comparison/)
    expect(() => parseAssertion('status_code equals')).toThrow(/needs a target/)
    expect(() => parseAssertion('json_body status equals ok')).toThrow(/JSONPath/)
  })

  it('describes an assertion the way it is written', () => {
    const line = 'json_body $.status equals ok'
    expect(describeAssertion(parseAssertion(line))).toBe(line)
    expect(
      describeResult({
        source: 'json_body',
        property: '$.status',
        comparison: 'equals',
        target: 'ok',
        passed: false,
        actual: 'degraded',
      }),
    ).toBe('json_body $.status equals ok (saw "degraded")')
  })
})
