/**
 * The JSONPath of `json_body` assertions: RFC 9535, evaluated by json-p3 with no code evaluation at
 * all (a filter is the standard's comparisons and functions, never JavaScript), with bounded work:
 *
 * - the document is read through a counting view: every member, element or key list read costs
 *   (a long string one more per KiB), and a query that reads more than MAX_NODES stops;
 * - `match()` and `search()` run in RE2 (re2js, linear time), and each call costs the pattern's
 *   program size times the characters it reads, at most MAX_REGEX_WORK a query;
 * - the standard's descendant depth limit of json-p3 (50) stays on.
 *
 * Evaluation is synchronous, so the budget of the query running now is a module variable.
 */
import {
  FunctionExpressionType,
  JSONPathEnvironment,
  JSONPathError,
  type FilterFunction,
  type JSONPathQuery,
  type JSONValue,
} from 'json-p3'
import { RE2JS, RE2JSException } from 're2js'

/** Members, elements and keys one query may read (a string counts once more per KiB). */
export const MAX_NODES = 10_000
/** Regular-expression work one query may do: program size × characters read. */
export const MAX_REGEX_WORK = 2_000_000
/** The longest pattern match() or search() compiles (a pattern may come from the document). */
export const MAX_PATTERN = 1000

/** A query stopped because it would do more work than its budget. */
export class JsonPathLimitError extends Error {
  override readonly name = 'JsonPathLimitError'
}

const thousands = (n: number) => n.toLocaleString('en-US')

class Budget {
  private nodes = 0
  private regex = 0
  /** This query's compiled patterns (null: not a valid pattern). */
  readonly patterns = new Map<string, RE2JS | null>()
  /** Set once a limit is passed; every read after that throws again, whatever catches the first. */
  stopped: string | null = null

  read(cost: number): void {
    this.nodes += cost
    if (this.nodes > MAX_NODES) this.stop(`JSONPath visited more than ${thousands(MAX_NODES)} nodes`)
  }

  scan(programSize: number, chars: number): void {
    this.regex += programSize * (chars + 1)
    if (this.regex > MAX_REGEX_WORK)
      this.stop(
        `JSONPath match()/search() needed more than ${thousands(MAX_REGEX_WORK)} steps (pattern size × text length)`,
      )
  }

  stop(message: string): never {
    this.stopped ??= message
    throw new JsonPathLimitError(this.stopped)
  }
}

let active: Budget | null = null

/** A view of a parsed JSON value whose reads are charged to `budget`; views of one value are one object. */
function countingView(root: JSONValue, budget: Budget): { view: JSONValue; unwrap: (v: unknown) => unknown } {
  const views = new WeakMap<object, object>()
  const targets = new WeakMap<object, object>()
  const wrap = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v
    let p = views.get(v)
    if (!p) {
      p = new Proxy(v, handler)
      views.set(v, p)
      targets.set(p, v)
    }
    return p
  }
  const handler: ProxyHandler<object> = {
    get(target, key) {
      const v: unknown = Reflect.get(target, key)
      if (typeof key !== 'string' || !Object.hasOwn(target, key)) return v
      if (key === 'length' && Array.isArray(target)) return v
      budget.read(typeof v === 'string' ? 1 + Math.floor(v.length / 1024) : 1)
      return wrap(v)
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target)
      budget.read(keys.length)
      return keys
    },
  }
  return {
    view: wrap(root) as JSONValue,
    unwrap: (v) => (v !== null && typeof v === 'object' ? (targets.get(v) ?? v) : v),
  }
}

/** RFC 9535 match() (whole string) or search() (any substring), in RE2 and on the budget. */
class Re2Function implements FilterFunction {
  readonly argTypes = [FunctionExpressionType.ValueType, FunctionExpressionType.ValueType]
  readonly returnType = FunctionExpressionType.LogicalType

  constructor(private readonly whole: boolean) {}

  call(value: unknown, pattern: unknown): boolean {
    if (typeof value !== 'string' || typeof pattern !== 'string' || !active) return false
    let re = active.patterns.get(pattern)
    if (re === undefined) {
      re = compilePattern(pattern, active)
      active.patterns.set(pattern, re)
    }
    if (!re) return false
    active.scan(re.programSize(), value.length)
    return this.whole ? re.matches(value) : re.matcher(value).find()
  }
}

function compilePattern(pattern: string, budget: Budget): RE2JS | null {
  if (pattern.length > MAX_PATTERN)
    budget.stop(`JSONPath match()/search() pattern longer than ${MAX_PATTERN} characters`)
  budget.scan(1, pattern.length)
  try {
    return RE2JS.compile(pattern)
  } catch (e) {
    // RFC 9535: a pattern that is not a valid regular expression matches nothing
    if (e instanceof RE2JSException) return null
    throw e
  }
}

class AssertionJsonPath extends JSONPathEnvironment {
  protected override setupFilterFunctions(): void {
    super.setupFilterFunctions()
    this.functionRegister.set('match', new Re2Function(true))
    this.functionRegister.set('search', new Re2Function(false))
  }
}

const environment = new AssertionJsonPath()
const compiled = new Map<string, JSONPathQuery>()
const COMPILED_KEPT = 500

function compileCached(path: string): JSONPathQuery {
  let q = compiled.get(path)
  if (!q) {
    q = environment.compile(path)
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value as string)
    compiled.set(path, q)
  }
  return q
}

export type JsonPathOutcome = { ok: true; values: unknown[] } | { ok: false; error: string }

/** The values `path` selects in `doc`, or why it could not be evaluated (syntax, or a limit). */
export function queryJson(path: string, doc: unknown): JsonPathOutcome {
  let query: JSONPathQuery
  try {
    query = compileCached(path)
  } catch (e) {
    if (e instanceof JSONPathError) return { ok: false, error: `invalid JSONPath: ${e.message}` }
    throw e
  }
  const budget = new Budget()
  const { view, unwrap } = countingView(doc as JSONValue, budget)
  active = budget
  try {
    const values = query.query(view).values().map(unwrap)
    if (budget.stopped) return { ok: false, error: budget.stopped }
    return { ok: true, values }
  } catch (e) {
    if (budget.stopped) return { ok: false, error: budget.stopped }
    if (e instanceof JSONPathError || e instanceof RangeError)
      return { ok: false, error: `JSONPath could not be evaluated: ${e.message}` }
    throw e
  } finally {
    active = null
  }
}
