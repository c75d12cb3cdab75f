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

export const StatusPageCreate = z
  .strictObject({
    slug: Slug,
    title: Title,
    monitor_ids: MonitorIds,
    description: Description.nullable().optional(),
    show_urls: ShowUrls.optional(),
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
  })
  .meta({ id: 'PublicStatusPage' })
export type PublicStatusPage = z.infer<typeof PublicStatusPage>
