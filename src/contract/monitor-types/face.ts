/**
 * What a face (CLI, dashboard, MCP, sitehealth.yaml) needs to know of a monitor type, beside its
 * wire shape (contract/monitors.ts) and its kind on the server (src/monitors/kinds/). Faces read
 * these instead of naming a type: a new type is a module of this folder and its entry in
 * `MONITOR_TYPE_FACES` (index.ts).
 */
import type { AssertionSource } from '../monitoring.js'
import type { Monitor, MonitorType } from '../monitors.js'
import { splitTags } from '../tags.js'

/** The fields a target is worded from (a monitor, or a create body). */
export interface TargetFields {
  url?: string | null
  host?: string | null
  port?: number | null
  starttls?: string | null
  record_type?: string | null
}

export interface MonitorTypeFace {
  type: MonitorType
  /** What a list shows for what it watches when it has no url (`heartbeat`). */
  noun: string
  /**
   * The service calls a url of it: `url` and assertions in its create shape, a URL field in the
   * forms, and a run on demand (the dashboard's Run now, `sitehealth test`).
   */
  url: boolean
  /** Why it has no url, as a refused `url` says it (types with a url: none). */
  noUrl?: string
  /**
   * Its runs are pushed to it (a job calls its push URL, a run is a beat or a missed deadline):
   * the push URL shown once at creation, the newest beat instead of the last run, `grace`.
   */
  pushed: boolean
  /**
   * It watches a `host` (no url): the guard judges the host, and the faces ask for it. `port` says
   * whether it takes a port too: required, optional (a default of its own), or none.
   */
  host: boolean
  port: 'required' | 'optional' | 'none'
  /** How the MCP create tool describes it: a sentence. */
  words: string
  /** The MCP create tool's own words for it, a type without a url: how to create one, what it answers. */
  tool?: { description: string; created: (m: Monitor) => string }
  /** Its flags of `sitehealth monitors create` (none: the type the URL argument makes). */
  cli?: TypeCli
  /** Its create form on the dashboard's monitors page, and its own fields on the edit form. */
  form: TypeForm
  /** The assertion sources its runs can judge (others are refused at create, naming the field). */
  assertions: readonly AssertionSource[]
  /**
   * How lists and alerts word what it watches when it has no url (`db.example.com:5432`); absent:
   * its `noun`.
   */
  target?: (m: TargetFields) => string
}

/** A flag of `monitors create`, as a type declares it (src/cli/type-flags.ts makes it an oclif flag). */
export interface TypeFlag {
  /** Its name, without the dashes (`heartbeat`, `grace`, `tcp`). */
  name: string
  description: string
  /** What it takes, as help shows it (`HOST:PORT`); none: a switch (`--heartbeat`). */
  value?: string
  /** The values it takes, when it takes one of a few (`A`, `AAAA`, …). */
  options?: readonly string[]
}

/** The flag values `TypeCli.body` reads, by flag name: a switch is true, a flag not given undefined. */
export type TypedFlags = Record<string, string | boolean | undefined>

export interface TypeCli {
  /** The flag that makes a monitor of this type (`--heartbeat`, `--tcp HOST:PORT`). */
  flag: TypeFlag
  /** Its other flags (`--grace`), refused without `flag`. */
  flags: TypeFlag[]
  /**
   * The create body's fields of its own, from its flags' values (`type` is added): `--grace 10m` →
   * `{grace_seconds: 600}`. A value it cannot read throws `FlagValueError`, whose message is the
   * CLI's one-line error.
   */
  body: (typed: TypedFlags) => Record<string, unknown>
  /** The refusal of `--assert`, for a type that takes no assertions. */
  noAssert?: string
  /** Its paragraph of `monitors create --help`. */
  help: string
  /** Its examples in `monitors create --help` (`<%= config.bin %>` is the CLI's name). */
  examples: string[]
}

/** A flag value a type cannot read: its message is shown as is. */
export class FlagValueError extends Error {}

/** A field of a type's dashboard form. */
export interface TypeFormField {
  /** The form field's name (`grace_minutes`). */
  name: string
  label: string
  /** `interval`: a choice of the dashboard's intervals. */
  input: 'text' | 'url' | 'number' | 'interval'
  /** A hint shown in the empty field, on the create form. */
  hint?: string
  required?: boolean
  maxlength?: number
  min?: number
  max?: number
  /** What it holds before anything is typed (and when a request leaves it out). */
  initial?: string
  /** The body field it fills, and what the typed text (trimmed) is there: the text itself by default. */
  into: string
  read?: (typed: string) => unknown
  /**
   * On the edit form too, beside the name (what it watches) or the interval (when): its value is
   * the monitor's field `from`, shown as text.
   */
  edit?: { beside: 'name' | 'interval'; from: keyof Monitor; show?: (value: unknown) => string }
}

export interface TypeForm {
  heading: string
  /** The paragraph under the heading. */
  intro: string
  /** The submit button's words. */
  submit: string
  /** In the order the form asks for them. */
  fields: TypeFormField[]
}

/** A monitor's name, as a form asks for it. */
export const nameField = (o: { label: string; required: boolean; hint: string }): TypeFormField => ({
  name: 'name',
  label: o.label,
  input: 'text',
  hint: o.hint,
  required: o.required,
  maxlength: 100,
  into: 'name',
  // an optional name left empty is the server's to choose
  ...(o.required ? {} : { read: (typed) => typed || undefined }),
})

/** How often it runs, as a form asks for it. */
export const intervalField = (label: string, initial: number): TypeFormField => ({
  name: 'interval_seconds',
  label,
  input: 'interval',
  initial: String(initial),
  into: 'interval_seconds',
  read: Number,
})

/** Its tags, as a form asks for them: separated by spaces or commas; none typed, none sent. */
export const tagsField = (): TypeFormField => ({
  name: 'tags',
  label: 'Tags',
  input: 'text',
  hint: 'env:prod team:web',
  into: 'tags',
  read: (typed) => (typed ? splitTags(typed) : undefined),
})
