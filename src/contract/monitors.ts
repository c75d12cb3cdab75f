/**
 * The wire shapes of monitors and alerts (docs/decisions.md#monitors-and-alerts), declared once: the monitor routes
 * validate and serialise with them, /openapi.json is generated from them, and the typed client,
 * the CLI and the MCP tools reuse them.
 */
import { z } from 'zod'
import { MAX_URL_LENGTH } from './routes.js'
import { PAGESPEED_METHODS, RiskLevel, RunResult } from './schemas.js'
import { AssertionResult, Assertions, GRACE, UptimeWindows, assertionsFor } from './monitoring.js'
import { CHANNEL_TYPES, Channel, ChannelRequest } from './channels.js'
import { Tags } from './tags.js'
import { Host, Port, StartTlsField, STARTTLS_PROTOCOLS, TimeoutSeconds } from './monitor-target.js'
import { MONITOR_TYPE_FACES } from './monitor-types/index.js'
import { DNS_RECORD_TYPES, DnsRecordTypeField, Resolver } from './dns.js'

export { CHANNEL_TYPES, Channel, ChannelRequest, type ChannelType } from './channels.js'

export const MONITOR_PATHS = {
  monitors: '/api/public/v1/monitors',
  monitor: '/api/public/v1/monitors/:id',
  runs: '/api/public/v1/monitors/:id/runs',
  run: '/api/public/v1/monitors/:id/run',
  events: '/api/public/v1/monitors/:id/events',
  uptime: '/api/public/v1/monitors/:id/uptime',
} as const

/** docs/decisions.md#monitors-and-alerts: 60 s to one day, 300 s by default; `serve --min-interval` lowers the floor. */
export const INTERVAL = { min: 60, max: 86_400, default: 300 } as const
export const DEFAULT_DOWN_AFTER = 2
export const DEFAULT_RECOVER_AFTER = 1
export const MONITOR_STATES = ['pending', 'up', 'degraded', 'down', 'paused', 'maintenance'] as const
export type MonitorState = (typeof MONITOR_STATES)[number]
export const EVENT_NAMES = [
  'monitor.down',
  'monitor.up',
  'monitor.degraded',
  'monitor.still_down',
  'certificate.expiring',
  'certificate.invalid',
  'score.below',
  'headers.regressed',
  'credits.exhausted',
  'score.regressed',
  'response_time.regressed',
] as const
export type EventName = (typeof EVENT_NAMES)[number]
/** Certificate warnings fire once at each of these days left (docs/decisions.md#monitors-and-alerts). */
export const CERT_THRESHOLDS_DAYS = [21, 7, 1] as const

const Uuid = z.uuid()
const DateTime = z.iso.datetime({ offset: true })
const Score = z.int().min(0).max(100)
const HttpUrl = z
  .string()
  .min(1)
  .max(MAX_URL_LENGTH)
  .meta({ format: 'uri', description: 'A full http or https URL.' })

export const Alerts = z
  .strictObject({
    down_after: z
      .int()
      .min(1)
      .max(20)
      .optional()
      .meta({
        description: `Consecutive failed runs before the monitor is down (default ${DEFAULT_DOWN_AFTER}).`,
      }),
    min_score: Score.nullable().optional().meta({
      description:
        'Raise score.below when the health score drops under this, and read the monitor as degraded; null: off.',
    }),
    recover_after: z
      .int()
      .min(1)
      .max(20)
      .optional()
      .meta({
        description: `Consecutive good runs before a down monitor is up again (default ${DEFAULT_RECOVER_AFTER}).`,
      }),
    remind_every_minutes: z
      .int()
      .min(1)
      .max(10_080)
      .nullable()
      .optional()
      .meta({ description: 'Repeat monitor.down as monitor.still_down this often while down; null: never.' }),
  })
  .meta({ id: 'MonitorAlerts' })
export type Alerts = z.infer<typeof Alerts>

export const AlertsView = z
  .object({
    down_after: z.int().min(1),
    min_score: Score.nullable(),
    recover_after: z.int().min(1),
    remind_every_minutes: z.int().min(1).nullable(),
  })
  .meta({ id: 'MonitorAlertsView' })
export type AlertsView = z.infer<typeof AlertsView>

const Channels = z.array(ChannelRequest).max(10)
const Name = z.string().trim().min(1).max(100)

/** A monitor's name in a monitors-as-code file (docs/decisions.md#monitors-as-code): unique per user. */
export const MONITOR_REF_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$'
export const MonitorRef = z
  .string()
  .regex(new RegExp(MONITOR_REF_PATTERN), {
    message: 'ref: 1 to 100 letters, digits, dots, dashes and underscores, starting with a letter or digit',
  })
  .meta({
    description:
      "The monitor's stable name in a monitors-as-code file (sitehealth.yaml): unique per user (a clash is 409 `conflict`). `sitehealth deploy` only touches monitors with a ref.",
  })
const IntervalSeconds = z
  .int()
  .min(1)
  .max(INTERVAL.max)
  .meta({
    description: `Seconds between runs: ${INTERVAL.min} to ${INTERVAL.max} (default ${INTERVAL.default}); the server's --min-interval may lower the floor.`,
  })

/** docs/decisions.md#performance-lab-and-estimate: a monitor may be measured in the lab browser, at most hourly (a lab run takes seconds of a shared browser). */
export const LAB_MIN_INTERVAL_SECONDS = 3600
const MonitorPagespeed = z.enum(PAGESPEED_METHODS).meta({
  description: `How scheduled runs judge performance: \`estimate\` (default) or \`lab\` (Lighthouse in the server's lab browser, when it has one; only with interval_seconds of at least ${LAB_MIN_INTERVAL_SECONDS}).`,
})
export const MONITOR_TYPES = ['http', 'heartbeat', 'tcp', 'tls', 'dns', 'ping'] as const
export type MonitorType = (typeof MONITOR_TYPES)[number]

const GraceSeconds = z
  .int()
  .min(GRACE.min)
  .max(GRACE.max)
  .meta({
    description: `Heartbeat monitors: how long past interval_seconds a beat may be late before the monitor is down (default ${GRACE.default}).`,
  })

/** What every monitor's create body may hold, whatever its type (in the order the docs list them). */
const MonitorHead = {
  ref: MonitorRef.optional(),
  interval_seconds: IntervalSeconds.optional(),
  pagespeed: MonitorPagespeed.optional(),
}
const MonitorTail = {
  name: Name.optional(),
  alerts: Alerts.optional(),
  channels: Channels.optional(),
  tags: Tags.optional(),
}

const TYPE_WORDS =
  'http (default): the service checks `url`; heartbeat: your job calls push_url; tcp: a port opens on `host`; tls: the certificate on `host`:`port` (with `starttls`); dns: the `record_type` records of `host`; ping: `host` answers ICMP echo.'
const TypeField = <T extends MonitorType>(type: T) => z.literal(type).meta({ description: TYPE_WORDS })
/** The `type` field of any monitor (monitors-as-code files name it so). */
export const MonitorTypeField = z.enum(MONITOR_TYPES).optional().meta({ description: TYPE_WORDS })

/**
 * One create shape per monitor type, keyed by `type` (`MonitorCreate`). A field of another type is
 * refused with the words below; a new type adds its shape here and its kind in src/monitors/kinds/.
 */
export const HttpMonitorCreate = z
  .strictObject({
    type: TypeField('http').optional(),
    url: HttpUrl.optional().meta({
      description: 'Required for http monitors; heartbeat monitors have none.',
    }),
    ...MonitorHead,
    grace_seconds: z.never({ error: 'grace_seconds is for heartbeat monitors' }).optional(),
    ...MonitorTail,
    assertions: Assertions.optional(),
  })
  // after the fields, as a missing field of no type was reported before there was a type
  .superRefine((m, ctx) => {
    if (m.url === undefined)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'an http monitor needs a url' })
  })

export const HeartbeatMonitorCreate = z.strictObject({
  type: TypeField('heartbeat'),
  url: z.never({ error: 'a heartbeat monitor has no url: it is called' }).optional(),
  ...MonitorHead,
  grace_seconds: GraceSeconds.optional(),
  ...MonitorTail,
  assertions: Assertions.max(0, { error: 'a heartbeat monitor runs no check to assert on' })
    .optional()
    .meta({ description: 'None: a heartbeat monitor runs no check to assert on.' }),
})

/** What every type that watches a host (no URL) takes: the host, and how long a run may take. */
const NO_URL = z.never({ error: 'this monitor type watches host (and port), not a url' }).optional()
const HostHead = {
  url: NO_URL,
  host: Host,
  ref: MonitorRef.optional(),
  interval_seconds: IntervalSeconds.optional(),
  timeout_seconds: TimeoutSeconds.optional(),
  grace_seconds: z.never({ error: 'grace_seconds is for heartbeat monitors' }).optional(),
}
const sourcesOf = (type: MonitorType) => MONITOR_TYPE_FACES[type].assertions

export const TcpMonitorCreate = z.strictObject({
  type: TypeField('tcp'),
  ...HostHead,
  port: Port,
  ...MonitorTail,
  assertions: assertionsFor('tcp', sourcesOf('tcp')).optional(),
})

export const TlsMonitorCreate = z.strictObject({
  type: TypeField('tls'),
  ...HostHead,
  port: Port.optional().meta({
    description: "Default 443; with starttls the protocol's own (smtp 587, imap 143, pop3 110).",
  }),
  starttls: StartTlsField.nullable().optional(),
  ...MonitorTail,
  assertions: assertionsFor('tls', sourcesOf('tls')).optional(),
})

/** How many echo requests a ping run sends. */
export const PING_COUNT = { min: 1, max: 20, default: 3 } as const
const PingCount = z
  .int()
  .min(PING_COUNT.min)
  .max(PING_COUNT.max)
  .meta({ description: `ping monitors: echo requests a run sends (default ${PING_COUNT.default}).` })

export const DnsMonitorCreate = z.strictObject({
  type: TypeField('dns'),
  ...HostHead,
  port: z.never({ error: 'a dns monitor has no port: give resolver IP[:port]' }).optional(),
  record_type: DnsRecordTypeField,
  resolver: Resolver.nullable().optional(),
  ...MonitorTail,
  assertions: assertionsFor('dns', sourcesOf('dns')).optional(),
})

export const PingMonitorCreate = z.strictObject({
  type: TypeField('ping'),
  ...HostHead,
  port: z.never({ error: 'a ping monitor has no port' }).optional(),
  count: PingCount.optional(),
  ...MonitorTail,
  assertions: assertionsFor('ping', sourcesOf('ping')).optional(),
})

export const MonitorCreate = z
  .discriminatedUnion(
    'type',
    [
      HttpMonitorCreate,
      HeartbeatMonitorCreate,
      TcpMonitorCreate,
      TlsMonitorCreate,
      DnsMonitorCreate,
      PingMonitorCreate,
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? `Invalid option: expected one of ${MONITOR_TYPES.map((t) => JSON.stringify(t)).join('|')}`
          : undefined,
    },
  )
  .meta({
    id: 'MonitorCreate',
    examples: [
      {
        url: 'https://example.com/health',
        interval_seconds: 60,
        assertions: [
          { source: 'status_code', comparison: 'equals', target: 200 },
          { source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' },
        ],
        alerts: { down_after: 2, recover_after: 2, remind_every_minutes: 60 },
      },
      { type: 'heartbeat', name: 'nightly backup', interval_seconds: 86_400, grace_seconds: 1800 },
      {
        type: 'tcp',
        host: 'db.example.com',
        port: 5432,
        interval_seconds: 60,
        assertions: [{ source: 'response_time', comparison: 'less_than', target: 200 }],
      },
      {
        type: 'tls',
        host: 'mail.example.com',
        starttls: 'smtp',
        assertions: [{ source: 'certificate_days', comparison: 'greater_than', target: 14 }],
      },
      {
        type: 'dns',
        host: 'example.com',
        record_type: 'A',
        resolver: '9.9.9.9',
        assertions: [{ source: 'dns_answer', comparison: 'contains', target: '93.184.216.34' }],
        tags: ['env:prod'],
      },
      {
        type: 'ping',
        host: 'gateway.example.com',
        count: 5,
        assertions: [{ source: 'packet_loss', comparison: 'less_than', target: 40 }],
      },
    ],
  })
export type MonitorCreate = z.infer<typeof MonitorCreate>

export const MonitorPatch = z
  .strictObject({
    url: HttpUrl.optional(),
    ref: MonitorRef.nullable().optional().meta({ description: 'A new ref; null removes it.' }),
    interval_seconds: IntervalSeconds.optional(),
    pagespeed: MonitorPagespeed.optional(),
    name: Name.optional(),
    grace_seconds: GraceSeconds.optional(),
    host: Host.optional().meta({ description: 'tcp, tls, dns and ping monitors: a new host.' }),
    port: Port.optional().meta({ description: 'tcp and tls monitors: a new port.' }),
    timeout_seconds: TimeoutSeconds.optional(),
    starttls: StartTlsField.nullable()
      .optional()
      .meta({ description: 'tls monitors: null turns STARTTLS off.' }),
    record_type: DnsRecordTypeField.optional(),
    resolver: Resolver.nullable()
      .optional()
      .meta({ description: 'dns monitors: a new resolver, IP[:port]; null: the system resolver.' }),
    count: PingCount.optional(),
    paused: z.boolean().optional(),
    alerts: Alerts.optional(),
    assertions: Assertions.optional().meta({ description: 'Replaces the assertion list ([] removes them).' }),
    channels: Channels.optional().meta({
      description:
        'Replaces the channel list; a channel equal to an existing one (same type and URL or address) keeps its id and secret.',
    }),
    tags: Tags.optional().meta({ description: 'Replaces the tags ([] removes them).' }),
  })
  .meta({ id: 'MonitorPatch' })
export type MonitorPatch = z.infer<typeof MonitorPatch>

export const LastCheck = z
  .object({
    id: Uuid,
    health_score: Score,
    risk_level: RiskLevel,
    status: z.string().meta({ description: 'Overall status of the check (ok, warning, needs_review…).' }),
    created_at: DateTime,
    response_time_ms: z
      .int()
      .min(0)
      .nullable()
      .optional()
      .meta({ description: 'How long the site took to answer this check.' }),
    certificate_expires_at: DateTime.nullable()
      .optional()
      .meta({ description: "When the site's TLS certificate expires (null: no certificate seen)." }),
  })
  .meta({ id: 'MonitorLastCheck' })
export type LastCheck = z.infer<typeof LastCheck>

export const Monitor = z
  .object({
    id: Uuid,
    ref: z.string().nullable().meta({ description: 'Its ref in a monitors-as-code file; null when none.' }),
    type: z.enum(MONITOR_TYPES),
    url: z
      .string()
      .nullable()
      .meta({ format: 'uri', description: 'The checked URL; null for heartbeat monitors.' }),
    name: z.string(),
    interval_seconds: z.int().min(1),
    pagespeed: MonitorPagespeed,
    grace_seconds: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: 'Heartbeat monitors only; null otherwise.' }),
    host: z.string().nullable().meta({
      description:
        'tcp, tls, dns and ping monitors: the host watched (dns: the name queried); null otherwise.',
    }),
    port: z
      .int()
      .min(1)
      .max(65_535)
      .nullable()
      .meta({ description: 'tcp and tls monitors; null otherwise.' }),
    timeout_seconds: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'Types that watch a host: seconds a run may take; null for http and heartbeat.' }),
    starttls: z
      .enum(STARTTLS_PROTOCOLS)
      .nullable()
      .meta({ description: 'tls monitors: the protocol upgraded with STARTTLS; null: TLS from the start.' }),
    record_type: z
      .enum(DNS_RECORD_TYPES)
      .nullable()
      .meta({ description: 'dns monitors: the record type queried; null otherwise.' }),
    resolver: z.string().nullable().meta({
      description:
        'dns monitors: the resolver asked, IP[:port]; null: the system resolver (and other types).',
    }),
    count: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'ping monitors: echo requests a run sends; null otherwise.' }),
    paused: z.boolean(),
    paused_reason: z
      .enum(['user', 'credits'])
      .nullable()
      .meta({ description: 'Why the monitor is paused: by its user, or out of credits.' }),
    state: z.enum(MONITOR_STATES),
    last_check: LastCheck.nullable(),
    next_run_at: DateTime.nullable().meta({
      description: 'When the next scheduled run is due; null while paused.',
    }),
    created_at: DateTime,
    updated_at: DateTime,
    alerts: AlertsView,
    channels: z.array(Channel),
    assertions: Assertions,
    tags: z.array(z.string()).meta({ description: 'Its tags, `name` or `name:value`, sorted.' }),
    uptime: UptimeWindows,
    push_url: z.string().optional().meta({
      format: 'uri',
      description:
        'Heartbeat monitors only, and only in the response that created the monitor: the URL your job calls (GET or POST; `?status=down&msg=…` reports a failure). Never shown again.',
    }),
  })
  .meta({ id: 'Monitor' })
export type Monitor = z.infer<typeof Monitor>

const Cursor = z.string().nullable().meta({
  description: 'Pass as `cursor` for the next page; null on the last page.',
})

export const MonitorList = z
  .object({ monitors: z.array(Monitor), next_cursor: Cursor })
  .meta({ id: 'MonitorList' })
export type MonitorList = z.infer<typeof MonitorList>

/** What a run came to. Append only: PostgreSQL stores each as its index (store/postgres/runs.ts). */
export const RUN_OUTCOMES = ['saved', 'failed', 'beat', 'ok'] as const
export type RunOutcomeName = (typeof RUN_OUTCOMES)[number]

export const MonitorRun = z
  .object({
    id: z.string(),
    started_at: DateTime,
    outcome: z.enum(RUN_OUTCOMES).meta({
      description:
        'saved: a check was saved; ok: a run of a type that keeps no check (tcp, tls, dns, ping) succeeded; failed: none could be made, or the run failed (or a heartbeat was missed or reported down); beat: a heartbeat arrived.',
    }),
    trigger: z.enum(['schedule', 'manual', 'heartbeat']),
    check_id: Uuid.nullable(),
    health_score: Score.nullable(),
    response_time_ms: z.int().min(0).nullable(),
    state: z.enum(MONITOR_STATES).meta({ description: 'The monitor state after this run.' }),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: 'Why a failed run failed (check_failed: the site could not be checked).' }),
    assertions: z
      .array(AssertionResult)
      .meta({ description: 'Each assertion of the monitor, as this run judged it.' }),
    details: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({
        description:
          'What a run of a type that keeps no check found (tls: days_left, issuer, protocol); null for http and heartbeat runs.',
        examples: [{ days_left: 62, issuer: "Let's Encrypt R11", protocol: 'TLSv1.3' }],
      }),
  })
  .meta({ id: 'MonitorRun' })
export type MonitorRun = z.infer<typeof MonitorRun>

/** What running a monitor now answers: an http monitor's check result, or the run of a type that keeps no check. */
export const MonitorRunAnswer = z.union([RunResult, MonitorRun]).meta({
  id: 'MonitorRunAnswer',
  description:
    'http monitors: the check result (RunResult). tcp, tls, dns and ping monitors: the run (MonitorRun), `outcome` ok (1 credit) or failed (nothing charged).',
})
export type MonitorRunAnswer = z.infer<typeof MonitorRunAnswer>

export const MonitorRuns = z
  .object({ runs: z.array(MonitorRun), next_cursor: Cursor })
  .meta({ id: 'MonitorRuns' })
export type MonitorRuns = z.infer<typeof MonitorRuns>

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export const Delivery = z
  .object({
    channel_id: Uuid,
    type: z.enum(CHANNEL_TYPES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int().min(0),
    last_attempt_at: DateTime.nullable(),
    last_error: z.string().nullable(),
  })
  .meta({ id: 'Delivery' })
export type Delivery = z.infer<typeof Delivery>

export const MonitorEvent = z
  .object({
    id: z.string(),
    event: z.enum(EVENT_NAMES),
    occurred_at: DateTime,
    message: z.string(),
    previous_state: z.enum(MONITOR_STATES),
    state: z.enum(MONITOR_STATES),
    check_id: Uuid.nullable(),
    deliveries: z.array(Delivery),
  })
  .meta({ id: 'MonitorEvent' })
export type MonitorEvent = z.infer<typeof MonitorEvent>

export const MonitorEvents = z
  .object({ events: z.array(MonitorEvent), next_cursor: Cursor })
  .meta({ id: 'MonitorEvents' })
export type MonitorEvents = z.infer<typeof MonitorEvents>

/** The body a webhook channel receives (docs/decisions.md#monitors-and-alerts). */
export const WebhookPayload = z
  .object({
    event: z.enum(EVENT_NAMES),
    occurred_at: DateTime,
    monitor: z.object({ id: Uuid, name: z.string(), url: z.string().nullable() }),
    check: LastCheck.nullable(),
    previous_state: z.enum(MONITOR_STATES),
    state: z.enum(MONITOR_STATES),
    message: z.string(),
  })
  .meta({ id: 'WebhookPayload' })
export type WebhookPayload = z.infer<typeof WebhookPayload>
