/**
 * The JSONPath of `json_body` assertions: RFC 9535, evaluated by json-p3 with no code evaluation at
 * all (a filter is the standard's comparisons and functions, never JavaScript), with bounded work:
 *
 * - the document is read through a counting view: every member, element or key read costs one
 *   (a long string one more per KiB), and a query that reads more than MAX_NODES stops;
 * - `match()` and `search()` run in RE2 (re2js, linear time), and each call costs the pattern's
 *   program size times the characters it reads, at most MAX_REGEX_WORK a query;
 * - the queries of one run share RUN_MAX_NODES and RUN_MAX_REGEX_WORK, so 20 assertions cost at
 *   most two and a half times one;
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
/** What the queries of one run (all its assertions, up to 20) may spend together. */
export const RUN_MAX_NODES = 25_000
export const RUN_MAX_REGEX_WORK = 5_000_000
/** The longest pattern match() or search() compiles (a pattern may come from the document). */
export const MAX_PATTERN = 1000

/** A query stopped because it would do more work than its budget. */
class JsonPathLimitError extends Error {
  override readonly name = 'JsonPathLimitError'
}

const thousands = (n: number) => n.toLocaleString('en-US')

/** What the queries of one run have left to spend; each query takes its share from it. */
export class RunAllowance {
  nodes = RUN_MAX_NODES
  regex = RUN_MAX_REGEX_WORK
}

class Budget {
  private nodes = 0
  private regex = 0
  private readonly maxNodes: number
  private readonly maxRegex: number
  /** This query's compiled patterns (null: not a valid pattern). */
  readonly patterns = new Map<string, RE2JS | null>()
  /** Set once a limit is passed; every read after that throws again, whatever catches the first. */
  stopped: string | null = null

  constructor(private readonly run: RunAllowance) {
    this.maxNodes = Math.min(MAX_NODES, run.nodes)
    this.maxRegex = Math.min(MAX_REGEX_WORK, run.regex)
  }

  read(cost: number): void {
    this.nodes += cost
    if (this.nodes > this.maxNodes) this.stop(`visited more than ${thousands(this.maxNodes)} nodes`)
  }

  scan(programSize: number, chars: number): void {
    this.regex += programSize * (chars + 1)
    if (this.regex > this.maxRegex)
      this.stop(
        `match()/search() needed more than ${thousands(this.maxRegex)} steps (pattern size × text length)`,
      )
  }

  stop(what: string): never {
    this.stopped ??=
      this.maxNodes < MAX_NODES || this.maxRegex < MAX_REGEX_WORK
        ? `JSONPath ${what}: this run's assertions had spent the rest of theirs`
        : `JSONPath ${what}`
    throw new JsonPathLimitError(this.stopped)
  }

  /** Takes what this query spent from its run's allowance. */
  settle(): void {
    this.run.nodes -= Math.min(this.nodes, this.maxNodes)
    this.run.regex -= Math.min(this.regex, this.maxRegex)
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

/**
 * The values `path` selects in `doc`, or why it could not be evaluated (syntax, or a limit); the
 * work is charged to `run` (the assertions of one run share one).
 */
export function queryJson(path: string, doc: unknown, run = new RunAllowance()): JsonPathOutcome {
  let query: JSONPathQuery
  try {
    query = compileCached(path)
  } catch (e) {
    if (e instanceof JSONPathError) return { ok: false, error: `invalid JSONPath: ${e.message}` }
    throw e
  }
  const budget = new Budget(run)
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
    budget.settle()
  }
}
