/**
 * The wire shapes of monitoring depth (docs/decisions.md#monitoring-depth), declared once: assertions, maintenance
 * windows, heartbeat monitors and uptime. The monitor shapes in monitors.ts use them; the routes,
 * the typed client, /openapi.json, the MCP tools and `sitehealth.yaml` (monitors as code) reuse
 * them.
 */
import { compile, JSONPathError } from 'json-p3'
import { z } from 'zod'

// ---- assertions (Checkly's model: {source, property?, comparison, target}) ----

export const ASSERTION_SOURCES = [
  'status_code',
  'response_time',
  'text_body',
  'json_body',
  'header',
  'health_score',
  'certificate_days',
  'dns_answer',
  'packet_loss',
] as const
export type AssertionSource = (typeof ASSERTION_SOURCES)[number]

export const ASSERTION_COMPARISONS = [
  'equals',
  'not_equals',
  'greater_than',
  'less_than',
  'contains',
  'not_contains',
  'is_empty',
  'not_empty',
] as const
export type AssertionComparison = (typeof ASSERTION_COMPARISONS)[number]

export const MAX_ASSERTIONS = 20
/** Sources whose value is a number: they compare as numbers and cannot `contain`. */
export const NUMERIC_SOURCES: readonly AssertionSource[] = [
  'status_code',
  'response_time',
  'health_score',
  'certificate_days',
  'packet_loss',
]
/** What a `dns_answer` assertion may ask of a dns run's answers (a list, not a text or a number). */
export const DNS_ANSWER_COMPARISONS: readonly AssertionComparison[] = [
  'contains',
  'equals',
  'not_contains',
  'is_empty',
  'not_empty',
]
/** Comparisons that need no target. */
export const UNARY_COMPARISONS: readonly AssertionComparison[] = ['is_empty', 'not_empty']

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/
/** Descendant segments (`..`) one json_body JSONPath may have: each multiplies the work. */
export const MAX_DESCENDANT_SEGMENTS = 2

/** `..` outside string literals, in a path that parsed. */
function descendantSegments(path: string): number {
  let n = 0
  let quote = ''
  for (let i = 0; i < path.length; i++) {
    const c = path[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
    } else if (c === "'" || c === '"') quote = c
    else if (c === '.' && path[i + 1] === '.') {
      n++
      i++
    }
  }
  return n
}

/** Why a json_body property is not a JSONPath assertions run (RFC 9535, bounded), or null. */
export function jsonPathProblem(path: string | undefined): string | null {
  if (!path || !path.startsWith('$')) return 'json_body needs a JSONPath in property, such as $.status'
  try {
    compile(path)
  } catch (e) {
    if (!(e instanceof JSONPathError)) throw e
    return `not an RFC 9535 JSONPath (${e.message}); filters read like $.items[?@.status == 'ok']`
  }
  const descendants = descendantSegments(path)
  if (descendants > MAX_DESCENDANT_SEGMENTS)
    return `the JSONPath has ${descendants} descendant segments (..); at most ${MAX_DESCENDANT_SEGMENTS} are allowed`
  return null
}

/** Why an assertion cannot be checked, or null when it can (shared by the schema and the CLI). */
export function assertionProblem(a: {
  source: AssertionSource
  property?: string
  comparison: AssertionComparison
  target?: string | number
}): { field: 'property' | 'target' | 'comparison'; message: string } | null {
  if (a.source === 'json_body') {
    const problem = jsonPathProblem(a.property)
    if (problem) return { field: 'property', message: problem }
  } else if (a.source === 'header') {
    if (!a.property || !HEADER_NAME.test(a.property))
      return { field: 'property', message: 'header needs the header name in property, such as content-type' }
  } else if (a.property !== undefined) {
    return { field: 'property', message: `property is only for json_body and header, not ${a.source}` }
  }
  if (a.source === 'dns_answer' && !DNS_ANSWER_COMPARISONS.includes(a.comparison))
    return { field: 'comparison', message: `dns_answer takes ${DNS_ANSWER_COMPARISONS.join(', ')}` }
  const numeric = NUMERIC_SOURCES.includes(a.source)
  if (numeric && (a.comparison === 'contains' || a.comparison === 'not_contains'))
    return {
      field: 'comparison',
      message: `${a.source} is a number: use equals, not_equals, greater_than or less_than`,
    }
  if (UNARY_COMPARISONS.includes(a.comparison)) return null
  if (a.target === undefined || a.target === '')
    return { field: 'target', message: `${a.comparison} needs a target` }
  const needsNumber = numeric || a.comparison === 'greater_than' || a.comparison === 'less_than'
  if (needsNumber && !Number.isFinite(Number(a.target)))
    return { field: 'target', message: `${a.comparison} on ${a.source} needs a number as target` }
  return null
}

export const Assertion = z
  .strictObject({
    source: z.enum(ASSERTION_SOURCES),
    property: z.string().min(1).max(500).optional().meta({
      description:
        'json_body: an RFC 9535 JSONPath such as `$.status` (at most 2 descendant segments); header: the header name. Not used by other sources.',
    }),
    comparison: z.enum(ASSERTION_COMPARISONS),
    target: z
      .union([z.string().max(1000), z.number()])
      .optional()
      .meta({
        description:
          'What to compare with; not needed by is_empty and not_empty. dns_answer: one record as the run lists it (`93.184.216.34`, `10 mail.example.com`); for equals, every record, comma-separated, in any order.',
      }),
  })
  .superRefine((a, ctx) => {
    const problem = assertionProblem(a)
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message })
  })
  .meta({
    id: 'Assertion',
    description:
      'What "working" means for this site, checked on the answer the run already fetched (Checkly\'s model).',
    examples: [
      { source: 'status_code', comparison: 'equals', target: 200 },
      { source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' },
    ],
  })
export type Assertion = z.infer<typeof Assertion>

export const Assertions = z
  .array(Assertion)
  .max(MAX_ASSERTIONS)
  .meta({ description: `Up to ${MAX_ASSERTIONS} assertions; a run fails when one does.` })

/**
 * The first assertion whose source a monitor type cannot judge (a `status_code` on a tcp monitor):
 * its index and the words a 400 gives, or null when every one fits. Create shapes and changes
 * use it, so both refuse alike.
 */
export function misfitAssertion(
  type: string,
  sources: readonly AssertionSource[],
  list: readonly Pick<Assertion, 'source'>[],
): { index: number; message: string } | null {
  const index = list.findIndex((a) => !sources.includes(a.source))
  if (index < 0) return null
  const fits = sources.length > 0 ? `use ${sources.join(' or ')}` : 'it takes none'
  return { index, message: `${list[index].source} does not fit a ${type} monitor: ${fits}` }
}

/** The assertions of a create shape whose type judges only `sources`. */
export const assertionsFor = (type: string, sources: readonly AssertionSource[]) =>
  Assertions.superRefine((list, ctx) => {
    const misfit = misfitAssertion(type, sources, list)
    if (misfit) ctx.addIssue({ code: 'custom', path: [misfit.index, 'source'], message: misfit.message })
  }).meta({
    description: `Up to ${MAX_ASSERTIONS} assertions from ${sources.join(', ')}; a run fails when one does.`,
  })

/** A JSON value an assertion saw (strings cut to 200 characters). */
export const AssertionActual = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .meta({ description: 'What the run saw (null: nothing there). Long text is cut to 200 characters.' })
export type AssertionActual = z.infer<typeof AssertionActual>

export const AssertionResult = z
  .object({
    source: z.enum(ASSERTION_SOURCES),
    property: z.string().nullable(),
    comparison: z.enum(ASSERTION_COMPARISONS),
    target: z.union([z.string(), z.number()]).nullable(),
    passed: z.boolean(),
    actual: AssertionActual,
  })
  .meta({ id: 'AssertionResult' })
export type AssertionResult = z.infer<typeof AssertionResult>

// ---- maintenance windows ----

export const MAINTENANCE_PATHS = {
  windows: '/api/public/v1/maintenance-windows',
  window: '/api/public/v1/maintenance-windows/:id',
} as const

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** An IANA time zone name this runtime knows ("Europe/Berlin", "UTC"); offsets are refused. */
export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

const DateTime = z.iso.datetime({ offset: true })
const Uuid = z.uuid()

export const WeeklySchedule = z
  .strictObject({
    days: z
      .array(z.enum(WEEKDAYS))
      .min(1)
      .max(7)
      .meta({ description: 'Days of the week the window opens on (mon … sun), in `timezone`.' }),
    start: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'start must be HH:MM (24 h)' })
      .meta({ description: 'Local time the window opens, HH:MM.' }),
    duration_minutes: z.int().min(1).max(10_080),
    timezone: z
      .string()
      .max(100)
      .refine(isTimeZone, { message: 'Unknown time zone: use an IANA name such as Europe/Berlin or UTC' })
      .meta({ description: 'IANA time zone name, e.g. Europe/Berlin.' }),
  })
  .meta({ id: 'WeeklySchedule' })
export type WeeklySchedule = z.infer<typeof WeeklySchedule>

const MonitorIds = z.union([z.literal('all'), z.array(Uuid).min(1).max(1000)]).meta({
  description: 'The monitors the window silences: their ids, or "all" (every monitor of the account).',
})

const WindowName = z.string().trim().min(1).max(100)

/** ends_at after starts_at; one-off windows need both, weekly ones may bound their recurrence. */
function windowProblem(w: {
  starts_at?: string | null
  ends_at?: string | null
  weekly?: WeeklySchedule | null
}): { field: string; message: string } | null {
  if (!w.weekly && (!w.starts_at || !w.ends_at))
    return {
      field: w.starts_at ? 'ends_at' : 'starts_at',
      message: 'a one-off window needs starts_at and ends_at (or give weekly)',
    }
  if (w.starts_at && w.ends_at && Date.parse(w.ends_at) <= Date.parse(w.starts_at))
    return { field: 'ends_at', message: 'ends_at must be after starts_at' }
  return null
}

export const MaintenanceCreate = z
  .strictObject({
    name: WindowName,
    monitor_ids: MonitorIds,
    starts_at: DateTime.optional(),
    ends_at: DateTime.optional(),
    weekly: WeeklySchedule.optional(),
  })
  .superRefine((w, ctx) => {
    const p = windowProblem(w)
    if (p) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message })
  })
  .meta({
    id: 'MaintenanceCreate',
    description:
      'A one-off window (`starts_at`, `ends_at`) or a weekly one (`weekly`; `starts_at`/`ends_at` then bound the recurrence).',
    examples: [
      {
        name: 'Release',
        monitor_ids: 'all',
        starts_at: '2026-12-01T22:00:00Z',
        ends_at: '2026-12-01T23:00:00Z',
      },
      {
        name: 'Weekly backup',
        monitor_ids: ['0199a1b2-0000-7000-8000-000000000001'],
        weekly: { days: ['sat'], start: '02:00', duration_minutes: 60, timezone: 'Europe/Berlin' },
      },
    ],
  })
export type MaintenanceCreate = z.infer<typeof MaintenanceCreate>

/** Any field of a window; the result must still be a valid window (checked by the server). */
export const MaintenancePatch = z
  .strictObject({
    name: WindowName.optional(),
    monitor_ids: MonitorIds.optional(),
    starts_at: DateTime.nullable().optional(),
    ends_at: DateTime.nullable().optional(),
    weekly: WeeklySchedule.nullable().optional(),
  })
  .meta({ id: 'MaintenancePatch' })
export type MaintenancePatch = z.infer<typeof MaintenancePatch>

/** The merged window of a patch, validated as a create would be (null when valid). */
export function maintenanceProblem(w: {
  starts_at?: string | null
  ends_at?: string | null
  weekly?: WeeklySchedule | null
}): { field: string; message: string } | null {
  return windowProblem(w)
}

export const MaintenanceWindow = z
  .object({
    id: Uuid,
    name: z.string(),
    monitor_ids: z.union([z.literal('all'), z.array(Uuid)]),
    starts_at: DateTime.nullable(),
    ends_at: DateTime.nullable(),
    weekly: WeeklySchedule.nullable(),
    active: z.boolean().meta({ description: 'The window is open now.' }),
    next_starts_at: DateTime.nullable().meta({
      description: 'When it opens next (the current opening while active); null when it never opens again.',
    }),
    next_ends_at: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'MaintenanceWindow' })
export type MaintenanceWindow = z.infer<typeof MaintenanceWindow>

export const MaintenanceList = z
  .object({ maintenance_windows: z.array(MaintenanceWindow) })
  .meta({ id: 'MaintenanceList' })
export type MaintenanceList = z.infer<typeof MaintenanceList>

// ---- heartbeat monitors ----

export const PUSH_PATH = '/api/push/:token'
export const GRACE = { min: 0, max: 86_400, default: 300 } as const
export const HEARTBEAT_STATUSES = ['up', 'down'] as const

export const PushQuery = z.object({
  status: z.enum(HEARTBEAT_STATUSES).optional().meta({ description: 'down records a failure (default up).' }),
  msg: z
    .string()
    .max(500)
    .optional()
    .meta({ description: 'A note kept with the beat (the failure message).' }),
})

export const PushResult = z
  .object({
    ok: z.literal(true),
    monitor_id: Uuid,
    status: z.enum(HEARTBEAT_STATUSES),
    received_at: DateTime,
  })
  .meta({ id: 'PushResult' })
export type PushResult = z.infer<typeof PushResult>

// ---- uptime ----

export const UPTIME_WINDOWS = ['24h', '7d', '30d'] as const
export type UptimeWindow = (typeof UPTIME_WINDOWS)[number]
export const UPTIME_WINDOW_MS: Record<UptimeWindow, number> = {
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
}
/** Hourly buckets are kept 31 days, daily ones 400 days (docs/decisions.md#monitoring-depth). */
export const HOURLY_RETENTION_DAYS = 31
export const DAILY_RETENTION_DAYS = 400

const Percent = z.number().min(0).max(100)

export const UptimeWindows = z
  .object({ '24h': Percent.nullable(), '7d': Percent.nullable(), '30d': Percent.nullable() })
  .meta({
    id: 'UptimeWindows',
    description:
      'Percent of counted runs that passed, per window; null before the first run (maintenance excluded).',
  })
export type UptimeWindows = z.infer<typeof UptimeWindows>

export const GRANULARITIES = ['hour', 'day'] as const
export type Granularity = (typeof GRANULARITIES)[number]

export const UptimeQuery = z.object({
  from: DateTime.optional().meta({ description: 'Start of the window (default: 30 days before `to`).' }),
  to: DateTime.optional().meta({ description: 'End of the window (default: now).' }),
  granularity: z
    .enum(GRANULARITIES)
    .optional()
    .meta({ description: 'Bucket size: hour (within the last 31 days) or day (default; up to 400 days).' }),
})
export type UptimeQuery = z.infer<typeof UptimeQuery>

export const UptimeBucket = z
  .object({
    start: DateTime,
    uptime_percent: Percent.nullable(),
    runs: z.int().min(0),
    failed_runs: z.int().min(0),
    avg_response_time_ms: z.number().min(0).nullable(),
    avg_health_score: z.number().min(0).max(100).nullable(),
  })
  .meta({ id: 'UptimeBucket' })
export type UptimeBucket = z.infer<typeof UptimeBucket>

export const UptimeReport = z
  .object({
    from: DateTime,
    to: DateTime,
    uptime_percent: Percent.nullable().meta({ description: 'null when no run counted in the window.' }),
    runs: z.int().min(0).meta({ description: 'Runs counted (runs inside maintenance windows are not).' }),
    failed_runs: z.int().min(0),
    downtime_seconds: z
      .int()
      .min(0)
      .meta({ description: 'Time the monitor was down (failed runs × their interval).' }),
    response_time_ms: z
      .object({ p50: z.number().min(0).nullable(), p95: z.number().min(0).nullable() })
      .meta({
        description:
          "Over the single runs while the raw runs kept cover the window (up to 1,000 saved runs), else over the buckets' averages weighted by their runs.",
      }),
    buckets: z.array(UptimeBucket),
  })
  .meta({
    id: 'UptimeReport',
    examples: [
      {
        from: '2026-11-24T00:00:00.000Z',
        to: '2026-11-25T00:00:00.000Z',
        uptime_percent: 99.31,
        runs: 1440,
        failed_runs: 10,
        downtime_seconds: 600,
        response_time_ms: { p50: 182, p95: 410 },
        buckets: [
          {
            start: '2026-11-24T00:00:00.000Z',
            uptime_percent: 99.31,
            runs: 1440,
            failed_runs: 10,
            avg_response_time_ms: 201.5,
            avg_health_score: 91.2,
          },
        ],
      },
    ],
  })
export type UptimeReport = z.infer<typeof UptimeReport>
