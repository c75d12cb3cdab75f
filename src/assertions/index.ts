export { evaluateAssertions, firstFailure, type AssertionSubject } from './evaluate.js'
export { parseAssertion, describeAssertion, describeResult, AssertionSyntaxError } from './text.js'
