/**
 * The wire shapes of status pages (docs/decisions.md#the-public-face), declared once: the routes validate and
 * serialise with them, /openapi.json is generated from them, and the typed client, the CLI and
 * the MCP tool reuse them. `PublicStatusPage` is the body of the public, unauthenticated
 * `GET /status/{slug}.json`: it carries nothing about the account (no key, email, check id), and a
 * monitor's URL only when the page says `show_urls`.
 */
import { z } from 'zod'

export const STATUS_PAGE_PATHS = {
  statusPages: '/api/public/v1/status-pages',
  statusPage: '/api/public/v1/status-pages/:id',
  /** The public page; `/status/{slug}.json` is the same route with `.json` on the slug. */
  publicPage: '/status/:slug',
  badge: '/status/:slug/badges/:monitor/:badge',
  incidents: '/api/public/v1/status-pages/:id/incidents',
  incident: '/api/public/v1/status-pages/:id/incidents/:incident',
  incidentUpdates: '/api/public/v1/status-pages/:id/incidents/:incident/updates',
  subscribers: '/api/public/v1/status-pages/:id/subscribers',
  subscriber: '/api/public/v1/status-pages/:id/subscribers/:subscriber',
  feedRss: '/status/:slug/feed.rss',
  feedAtom: '/status/:slug/feed.atom',
  summary: '/status/:slug/api/v2/summary.json',
  status: '/status/:slug/api/v2/status.json',
  subscribe: '/status/:slug/subscribers',
  confirm: '/status/:slug/subscribers/confirm',
  unsubscribe: '/status/:slug/subscribers/unsubscribe',
} as const

/** The public address of a page (its JSON twin adds `.json`). */
export const publicStatusPath = (slug: string) => `/status/${slug}`

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/
/**
 * Slugs a page may not take: words that name parts of the service (or may one day), so a status
 * page never reads as if the service itself said it.
 */
export const RESERVED_SLUGS = [
  'about',
  'account',
  'admin',
  'api',
  'app',
  'assets',
  'badges',
  'dashboard',
  'docs',
  'help',
  'login',
  'logout',
  'metrics',
  'new',
  'openapi',
  'public',
  'settings',
  'sign-in',
  'sign-out',
  'sign-up',
  'sitehealth',
  'static',
  'status',
  'support',
  'system',
  'www',
] as const

export const MAX_PAGE_MONITORS = 100
export const BADGE_KINDS = ['status', 'uptime', 'score'] as const
export type BadgeKind = (typeof BADGE_KINDS)[number]
export const BADGE_WINDOWS = ['24h', '7d', '30d'] as const
export type BadgeWindow = (typeof BADGE_WINDOWS)[number]
/** Days of uptime bars on a public page, and days of incidents listed. */
export const STATUS_DAYS = 90
export const INCIDENT_DAYS = 30

const Uuid = z.uuid()
const DateTime = z.iso.datetime({ offset: true })

const Slug = z
  .string()
  .regex(SLUG_PATTERN, {
    message:
      'must be 2 to 63 characters of lowercase letters, digits and hyphens, starting with a letter or digit',
  })
  .meta({
    description:
      'The page address `/status/{slug}`: 2 to 63 lowercase letters, digits and hyphens, starting with a letter or digit; unique on the server; a few words naming parts of the service are reserved.',
    example: 'acme',
  })
const Title = z.string().trim().min(1).max(100)
const Description = z.string().trim().max(1000)
const MonitorIds = z
  .array(Uuid)
  .max(MAX_PAGE_MONITORS)
  .meta({ description: `Your monitors shown on the page, in this order (at most ${MAX_PAGE_MONITORS}).` })
const ShowUrls = z
  .boolean()
  .meta({ description: "Show each monitor's URL on the public page (default false)." })

/** A host name: lowercase labels of letters, digits and hyphens, at least two, no port. */
export const DOMAIN_PATTERN =
  /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(DOMAIN_PATTERN, {
    message: 'must be a host name such as status.example.com (no scheme, port or path)',
  })
  .meta({
    description:
      'A host name of yours (`status.example.com`): a request whose `Host` is this name gets the page at `/`, its JSON, feeds and badges under it. Unique on the server; TLS stays with the proxy in front.',
    example: 'status.acme.example',
  })
const AutoIncidents = z.boolean().meta({
  description:
    "Open a draft incident when one of the page's monitors goes down (default false); publish it with `PATCH {draft: false}` or delete it.",
})
export const MAX_SECTIONS = 20
export const Section = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    monitor_ids: z.array(Uuid).max(MAX_PAGE_MONITORS),
  })
  .meta({ id: 'StatusPageSection' })
export type Section = z.infer<typeof Section>
const Sections = z.array(Section).max(MAX_SECTIONS).meta({
  description:
    "Component groups, in order: each names some of the page's monitors (each monitor in one section at most). Monitors in no section show after them under Services.",
})

export const StatusPageCreate = z
  .strictObject({
    slug: Slug,
    title: Title,
    monitor_ids: MonitorIds,
    description: Description.nullable().optional(),
    show_urls: ShowUrls.optional(),
    auto_incidents: AutoIncidents.optional(),
    sections: Sections.optional(),
    domain: Domain.nullable().optional(),
  })
  .meta({ id: 'StatusPageCreate' })
export type StatusPageCreate = z.infer<typeof StatusPageCreate>

export const StatusPagePatch = z
  .strictObject({
    slug: Slug.optional(),
    title: Title.optional(),
    monitor_ids: MonitorIds.optional(),
    description: Description.nullable().optional(),
    show_urls: ShowUrls.optional(),
    auto_incidents: AutoIncidents.optional(),
    sections: Sections.optional(),
    domain: Domain.nullable().optional(),
  })
  .meta({ id: 'StatusPagePatch' })
export type StatusPagePatch = z.infer<typeof StatusPagePatch>

export const StatusPage = z
  .object({
    id: Uuid,
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    monitor_ids: z.array(Uuid),
    show_urls: z.boolean(),
    auto_incidents: z.boolean(),
    sections: z.array(Section),
    domain: z.string().nullable(),
    public_url: z.string().meta({
      format: 'uri',
      description:
        'The public page; add `.json` for its JSON, `/badges/{monitor_id}/status.svg` for a badge.',
    }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'StatusPage' })
export type StatusPage = z.infer<typeof StatusPage>

export const StatusPageList = z.object({ status_pages: z.array(StatusPage) }).meta({ id: 'StatusPageList' })
export type StatusPageList = z.infer<typeof StatusPageList>

/** A monitor's state as the public sees it. */
export const PUBLIC_STATES = ['up', 'down', 'degraded', 'maintenance', 'paused', 'pending'] as const
export type PublicState = (typeof PUBLIC_STATES)[number]
/** The page's overall state, worst first. */
export const OVERALL_STATES = [
  'major_outage',
  'partial_outage',
  'degraded',
  'maintenance',
  'operational',
  'unknown',
] as const
export type OverallState = (typeof OVERALL_STATES)[number]

const Percent = z.number().min(0).max(100)

export const PublicDay = z
  .object({
    date: z.iso.date().meta({ description: 'The UTC day.' }),
    uptime_percent: Percent.nullable().meta({ description: 'null: no runs counted that day.' }),
  })
  .meta({ id: 'PublicStatusDay' })
export type PublicDay = z.infer<typeof PublicDay>

export const PublicMonitor = z
  .object({
    id: Uuid,
    name: z.string(),
    url: z.string().optional().meta({ description: 'Only when the page has show_urls.' }),
    state: z.enum(PUBLIC_STATES),
    uptime: z
      .object({ '24h': Percent.nullable(), '7d': Percent.nullable(), '30d': Percent.nullable() })
      .meta({ description: 'Percent of counted runs that were up; null before the first.' }),
    uptime_90d: Percent.nullable(),
    days: z.array(PublicDay).meta({ description: `${STATUS_DAYS} UTC days, oldest first, today last.` }),
  })
  .meta({ id: 'PublicStatusMonitor' })
export type PublicMonitor = z.infer<typeof PublicMonitor>

export const PublicMaintenance = z
  .object({
    name: z.string(),
    starts_at: DateTime,
    ends_at: DateTime,
    active: z.boolean().meta({ description: 'true while it is on.' }),
    monitor_ids: z.array(Uuid).meta({ description: "The page's monitors it covers." }),
  })
  .meta({ id: 'PublicStatusMaintenance' })
export type PublicMaintenance = z.infer<typeof PublicMaintenance>

export const PublicIncident = z
  .object({
    monitor_id: Uuid,
    monitor_name: z.string(),
    started_at: DateTime,
    ended_at: DateTime.nullable().meta({ description: 'null: still down.' }),
    duration_seconds: z.int().min(0).meta({ description: 'Until it ended, or until now.' }),
  })
  .meta({ id: 'PublicStatusIncident' })
export type PublicIncident = z.infer<typeof PublicIncident>

// ---- incidents posted on a page (docs/status-pages.md) ----

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number]
export const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number]
/** Days of resolved incidents a public page, its feeds and its summary show. */
export const STATUS_INCIDENT_DAYS = 90

const IncidentTitle = z.string().trim().min(1).max(200)
const IncidentMessage = z.string().trim().min(1).max(5000)
const IncidentStatusField = z.enum(INCIDENT_STATUSES).meta({
  description: 'investigating → identified → monitoring → resolved; `resolved` resolves the incident.',
})
const ImpactField = z.enum(INCIDENT_IMPACTS)
const IncidentMonitors = z
  .array(Uuid)
  .max(MAX_PAGE_MONITORS)
  .meta({ description: "The page's monitors it affects." })

export const StatusIncidentCreate = z
  .strictObject({
    title: IncidentTitle,
    status: IncidentStatusField.default('investigating'),
    message: IncidentMessage,
    impact: ImpactField.default('minor'),
    monitor_ids: IncidentMonitors.optional(),
    draft: z
      .boolean()
      .optional()
      .meta({ description: 'Seen by the owner only until published (default false).' }),
  })
  .meta({ id: 'StatusIncidentCreate' })
export type StatusIncidentCreate = z.input<typeof StatusIncidentCreate>

export const StatusIncidentPatch = z
  .strictObject({
    title: IncidentTitle.optional(),
    status: IncidentStatusField.optional(),
    impact: ImpactField.optional(),
    monitor_ids: IncidentMonitors.optional(),
    draft: z
      .literal(false)
      .optional()
      .meta({ description: '`false` publishes a draft (a published incident stays published).' }),
  })
  .meta({ id: 'StatusIncidentPatch' })
export type StatusIncidentPatch = z.infer<typeof StatusIncidentPatch>

export const StatusIncidentUpdateCreate = z
  .strictObject({ status: IncidentStatusField, message: IncidentMessage })
  .meta({ id: 'StatusIncidentUpdateCreate' })
export type StatusIncidentUpdateCreate = z.infer<typeof StatusIncidentUpdateCreate>

export const StatusIncidentUpdate = z
  .object({ id: Uuid, status: z.enum(INCIDENT_STATUSES), message: z.string(), created_at: DateTime })
  .meta({ id: 'StatusIncidentUpdate' })
export type StatusIncidentUpdate = z.infer<typeof StatusIncidentUpdate>

const incidentFields = {
  id: Uuid,
  title: z.string(),
  status: z.enum(INCIDENT_STATUSES),
  impact: z.enum(INCIDENT_IMPACTS),
  monitor_ids: z.array(Uuid),
  created_at: DateTime,
  updated_at: DateTime,
  resolved_at: DateTime.nullable(),
  updates: z.array(StatusIncidentUpdate).meta({ description: 'Newest first.' }),
}

export const StatusIncident = z
  .object({ ...incidentFields, status_page_id: Uuid, draft: z.boolean() })
  .meta({ id: 'StatusIncident' })
export type StatusIncident = z.infer<typeof StatusIncident>

export const StatusIncidentList = z
  .object({ incidents: z.array(StatusIncident).meta({ description: 'Newest first, drafts included.' }) })
  .meta({ id: 'StatusIncidentList' })
export type StatusIncidentList = z.infer<typeof StatusIncidentList>

export const PublicStatusIncident = z.object(incidentFields).meta({ id: 'PublicPostedIncident' })
export type PublicStatusIncident = z.infer<typeof PublicStatusIncident>

// ---- subscribers (docs/status-pages.md) ----

export const SUBSCRIBER_TYPES = ['email', 'webhook'] as const
export type SubscriberType = (typeof SUBSCRIBER_TYPES)[number]

export const SubscribeRequest = z
  .union([
    z.strictObject({ email: z.email().max(254) }),
    z.strictObject({ webhook_url: z.url({ protocol: /^https?$/ }).max(2048) }),
  ])
  .meta({ id: 'StatusSubscribeRequest' })
export type SubscribeRequest = z.infer<typeof SubscribeRequest>

export const SubscribeAccepted = z
  .object({
    ok: z.literal(true),
    message: z.string(),
    subscriber: z.object({ id: Uuid, secret: z.string(), unsubscribe_url: z.string() }).optional().meta({
      description:
        'Webhooks only: the subscription, its signing secret (shown once; `X-Sitehealth-Signature` as alert webhooks) and its unsubscribe link.',
    }),
  })
  .meta({ id: 'StatusSubscribeAccepted' })
export type SubscribeAccepted = z.infer<typeof SubscribeAccepted>

export const Subscriber = z
  .object({
    id: Uuid,
    type: z.enum(SUBSCRIBER_TYPES),
    target: z.string().meta({ description: 'The address, or the webhook URL masked.' }),
    created_at: DateTime,
  })
  .meta({ id: 'StatusSubscriber' })
export type Subscriber = z.infer<typeof Subscriber>

export const SubscriberList = z
  .object({ subscribers: z.array(Subscriber), count: z.int().min(0) })
  .meta({ id: 'StatusSubscriberList' })
export type SubscriberList = z.infer<typeof SubscriberList>

/** What a subscribed webhook receives (signed as alert webhooks are). */
export const SUBSCRIBER_EVENTS = [
  'incident.created',
  'incident.updated',
  'incident.resolved',
  'maintenance.scheduled',
] as const
export type SubscriberEvent = (typeof SUBSCRIBER_EVENTS)[number]

export const PublicStatusPage = z
  .object({
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    state: z.enum(OVERALL_STATES),
    generated_at: DateTime,
    monitors: z.array(PublicMonitor),
    maintenance: z
      .array(PublicMaintenance)
      .meta({ description: 'Maintenance on now or coming (the next occurrences), soonest first.' }),
    incidents: z
      .array(PublicIncident)
      .meta({ description: `Down periods of the last ${INCIDENT_DAYS} days, newest first.` }),
    status_incidents: z.array(PublicStatusIncident).meta({
      description: `Incidents the page's owner posted: the open ones first, then those resolved in the last ${STATUS_INCIDENT_DAYS} days, newest first; each with its updates, newest first. Drafts never show.`,
    }),
    sections: z.array(Section).meta({ description: 'Component groups of the monitors, in order.' }),
  })
  .meta({ id: 'PublicStatusPage' })
export type PublicStatusPage = z.infer<typeof PublicStatusPage>
