/**
 * Assertions as one line of text, the CLI's `--assert "json_body $.status equals ok"`:
 * `SOURCE [PROPERTY] COMPARISON [TARGET…]`, PROPERTY only for json_body and header. The same words
 * describe an assertion in messages (`monitor.down` says which assertion failed and what it saw).
 */
import {
  ASSERTION_COMPARISONS,
  ASSERTION_SOURCES,
  Assertion,
  NUMERIC_SOURCES,
  type AssertionComparison,
  type AssertionResult,
  type AssertionSource,
} from '../contract/monitoring.js'

export class AssertionSyntaxError extends Error {
  override readonly name = 'AssertionSyntaxError'
}

const WITH_PROPERTY: readonly AssertionSource[] = ['json_body', 'header']

function unquote(s: string): string {
  const m = /^(["'])(.*)\1$/s.exec(s)
  return m ? m[2] : s
}

/** Parses one line; throws AssertionSyntaxError naming what is wrong. */
export function parseAssertion(text: string): Assertion {
  const words = text.trim().split(/\s+/)
  const source = words[0] as AssertionSource
  if (!ASSERTION_SOURCES.includes(source))
    throw new AssertionSyntaxError(
      `"${text}": the source must be one of ${ASSERTION_SOURCES.join(', ')} (e.g. "status_code equals 200")`,
    )
  const hasProperty = WITH_PROPERTY.includes(source)
  const property = hasProperty ? words[1] : undefined
  const comparison = words[hasProperty ? 2 : 1] as AssertionComparison
  if (!ASSERTION_COMPARISONS.includes(comparison))
    throw new AssertionSyntaxError(
      `"${text}": expected ${hasProperty ? `SOURCE PROPERTY COMPARISON` : 'SOURCE COMPARISON'} [TARGET], the comparison one of ${ASSERTION_COMPARISONS.join(', ')}`,
    )
  const rest = unquote(
    text
      .trim()
      .split(/\s+/)
      .slice(hasProperty ? 3 : 2)
      .join(' '),
  )
  let target: string | number | undefined = rest === '' ? undefined : rest
  if (target !== undefined && NUMERIC_SOURCES.includes(source) && Number.isFinite(Number(target)))
    target = Number(target)
  const raw = {
    source,
    comparison,
    ...(property !== undefined ? { property } : {}),
    ...(target !== undefined ? { target } : {}),
  }
  const parsed = Assertion.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new AssertionSyntaxError(`"${text}": ${issue.message}`)
  }
  return parsed.data
}

/** One line for an assertion: `json_body $.status equals ok`. */
export function describeAssertion(a: {
  source: AssertionSource
  property?: string | null
  comparison: AssertionComparison
  target?: string | number | null
}): string {
  return [a.source, a.property, a.comparison, a.target]
    .filter((x) => x !== undefined && x !== null && x !== '')
    .map(String)
    .join(' ')
}

/** `json_body $.status equals ok (saw "degraded")`, for alert messages and test reports. */
export function describeResult(r: AssertionResult): string {
  const saw = r.actual === null ? 'nothing' : JSON.stringify(r.actual)
  return `${describeAssertion(r)} (saw ${saw})`
}
