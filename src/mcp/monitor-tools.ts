/**
 * The monitor tools of docs/decisions.md#monitors-and-alerts and #monitoring-depth, registered beside the five of the
 * spec: list the user's monitors (free, read-only), create one (it spends credits on every
 * scheduled run, so the description says so) and read a monitor's uptime over a window (free). Same conventions as tools.ts: the API's body as structuredContent, the
 * contract schema as output schema, API failures as tool errors.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { ApiError, type SitehealthClient } from '../client/client.js'
import {
  ChannelRequest,
  INTERVAL,
  MONITOR_TYPES,
  PING_COUNT,
  Monitor,
  MonitorList,
  type ChannelRequest as Ch,
  type MonitorCreate,
  type MonitorType,
} from '../contract/monitors.js'
import { CHANNEL_TYPES, channelShapesText, listWords, providerFace } from '../contract/channels.js'
import { MAX_URL_LENGTH, PAGE_SIZES, TARGET_URL_PATTERN } from '../contract/index.js'
import { GRACE, GRANULARITIES, UptimeReport } from '../contract/monitoring.js'
import { MONITOR_TYPE_FACES, typeFace, typeFaces } from '../contract/monitor-types/index.js'
import { Host, Port, StartTlsField, TimeoutSeconds, type StartTls } from '../contract/monitor-target.js'
import { MAX_TAGS, Tag, Tags } from '../contract/tags.js'
import { DnsRecordTypeField, Resolver, type DnsRecordType } from '../contract/dns.js'
import { toolTarget } from './target.js'

export const MONITOR_TOOL_NAMES = [
  'service_list_monitors',
  'service_create_monitor',
  'service_get_monitor_uptime',
] as const

const UptimeInput = {
  monitor_id: z.uuid().meta({ description: 'The monitor id (from service_list_monitors).' }),
  from: z.iso.datetime({ offset: true }).optional().meta({
    description: 'Start of the window, ISO 8601 (default: 30 days before `to`). Windows up to 400 days.',
  }),
  to: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'End of the window, ISO 8601 (default: now).' }),
  granularity: z
    .enum(GRANULARITIES)
    .optional()
    .meta({ description: 'Bucket size: day (default) or hour (within the last 31 days).' }),
}

const ListInput = {
  limit: z.literal(PAGE_SIZES).optional().meta({ description: 'Page size: 10, 25 or 50 (default 10).' }),
  cursor: z
    .string()
    .optional()
    .meta({ description: 'The `next_cursor` of the previous page, for the next (older) page.' }),
  tag: z.array(Tag).max(MAX_TAGS).optional().meta({
    description: 'Only monitors with each of these tags: `env:prod`, or a bare `env` for any value of it.',
  }),
}

/** The types without a url, as the create tool names them. */
const URLLESS = typeFaces().filter((f) => !f.url)
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

const CreateInput = {
  type: z
    .enum(MONITOR_TYPES)
    .optional()
    .meta({
      description: MONITOR_TYPES.map((t) => MONITOR_TYPE_FACES[t].words).join(' '),
    }),
  url: z
    .string()
    .max(MAX_URL_LENGTH)
    .regex(new RegExp(TARGET_URL_PATTERN), {
      message: 'invalid_url: Only http and https URLs (or a bare host, meaning https) can be monitored',
    })
    .optional()
    .meta({
      description:
        'http monitors (required): the http:// or https:// URL to watch; a bare host (example.com) means https. ' +
        `${capitalise(listWords(URLLESS.map((f) => f.noun)))} monitors have none.`,
    }),
  interval_seconds: z
    .int()
    .min(1)
    .max(INTERVAL.max)
    .optional()
    .meta({
      description: `Seconds between runs, ${INTERVAL.min} to ${INTERVAL.max} (default ${INTERVAL.default}); each run of an http monitor costs 1 credit. Heartbeat monitors: how often the job is expected to call.`,
    }),
  grace_seconds: z
    .int()
    .min(GRACE.min)
    .max(GRACE.max)
    .optional()
    .meta({
      description: `Heartbeat monitors only: how late a beat may be before the monitor is down (default ${GRACE.default}).`,
    }),
  host: Host.optional().meta({
    description:
      'tcp, tls, dns and ping monitors (required): the host name or IP address (dns: the name queried).',
  }),
  port: Port.optional().meta({
    description: "tcp monitors (required) and tls monitors (default 443, or the starttls protocol's own).",
  }),
  starttls: StartTlsField.optional(),
  timeout_seconds: TimeoutSeconds.optional(),
  record_type: DnsRecordTypeField.optional(),
  resolver: Resolver.optional(),
  count: z
    .int()
    .min(PING_COUNT.min)
    .max(PING_COUNT.max)
    .optional()
    .meta({ description: `ping monitors: echo requests each run sends (default ${PING_COUNT.default}).` }),
  name: z.string().min(1).max(100).optional().meta({ description: 'A name (default: the host).' }),
  min_score: z
    .int()
    .min(0)
    .max(100)
    .optional()
    .meta({ description: 'Alert (score.below) when the health score drops under this.' }),
  channels: z
    .array(ChannelRequest)
    .max(10)
    .optional()
    .meta({
      description: `Where alerts go: ${channelShapesText()}. ${signedText()}`,
    }),
  tags: Tags.optional(),
}

/** "A webhook channel's signing secret is in the result, once." */
function signedText(): string {
  const signed = CHANNEL_TYPES.filter((t) => providerFace(t).signed)
  return `A ${listWords(signed)} channel's signing secret is in the result, once.`
}

const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
}

export function registerMonitorTools(
  server: McpServer,
  getClient: () => SitehealthClient,
  fail: (err: unknown) => CallToolResult,
): void {
  server.registerTool(
    'service_list_monitors',
    {
      title: 'List website monitors',
      description:
        "Lists the monitors of this API key's user, newest first: each watched URL with its interval, state " +
        '(pending, up, degraded, down, paused), last health score and next run. Free: costs no credits. When ' +
        'next_cursor is not null, call again with cursor set to it. Use it to report which client sites need ' +
        'attention without re-running checks.',
      inputSchema: ListInput,
      outputSchema: MonitorList.shape,
      annotations: { ...READ_ONLY, title: 'Monitors' },
    },
    async ({ limit, cursor, tag }) => {
      try {
        const body = await getClient().listMonitors({ limit, cursor, tag })
        const lines = body.monitors.map(
          (m) =>
            `- ${m.name} (${m.url}): ${m.state}` +
            (m.uptime['30d'] !== null
              ? `, uptime ${m.uptime['24h'] ?? '-'}% (24 h), ${m.uptime['30d']}% (30 d)`
              : '') +
            (m.last_check ? `, health ${m.last_check.health_score}/100` : '') +
            `, every ${m.interval_seconds} s` +
            (m.tags.length ? `, tags ${m.tags.join(' ')}` : '') +
            ` (id ${m.id})`,
        )
        const text =
          body.monitors.length === 0
            ? 'No monitors.'
            : `${body.monitors.length} monitor(s):\n${lines.join('\n')}` +
              (body.next_cursor ? `\nMore: call again with cursor ${body.next_cursor}.` : '')
        return { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
      } catch (err) {
        return fail(err)
      }
    },
  )

  server.registerTool(
    'service_create_monitor',
    {
      title: 'Create a website monitor',
      description:
        'Starts watching a URL on a schedule and alerting on changes (down, back up, degraded, certificate ' +
        'expiring or invalid, score below min_score, a security header removed, score or response time ' +
        'regressed against its own 7 days). COST: every scheduled run is ' +
        'a saved check charged 1 credit (at the default 300 s interval, 288 credits a day); when credits run ' +
        'out the monitor pauses itself. The first run starts at once. Creating the same URL twice makes two ' +
        'monitors, so list first (service_list_monitors). ' +
        typeFaces()
          .flatMap((f) => (f.tool ? [f.tool.description] : []))
          .join(' '),
      inputSchema: CreateInput,
      outputSchema: Monitor.shape,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
        title: 'Create a monitor (1 credit per run)',
      },
    },
    createMonitor(getClient, fail),
  )

  server.registerTool(
    'service_get_monitor_uptime',
    {
      title: 'Uptime of a website monitor',
      description:
        'Reports how available a monitored site was over a window (default: the last 30 days; up to 400 days): ' +
        'uptime percent, runs and failed runs, downtime in seconds, response-time p50/p95, and one bucket per ' +
        'day (or per hour within the last 31 days). Runs in maintenance windows do not count. Free: costs no ' +
        'credits. Use it for SLA reports and "was the site down last week?" questions.',
      inputSchema: UptimeInput,
      outputSchema: UptimeReport.shape,
      annotations: { ...READ_ONLY, title: 'Monitor uptime' },
    },
    async ({ monitor_id, from, to, granularity }) => {
      try {
        const body = await getClient().monitorUptime(monitor_id, { from, to, granularity })
        const text =
          body.uptime_percent === null
            ? `No runs between ${body.from} and ${body.to}.`
            : `Uptime ${body.uptime_percent}% from ${body.from} to ${body.to}: ${body.runs} runs, ` +
              `${body.failed_runs} failed, ${body.downtime_seconds} s down` +
              (body.response_time_ms.p50 !== null
                ? `, response p50 ${body.response_time_ms.p50} ms, p95 ${body.response_time_ms.p95} ms.`
                : '.')
        return { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
      } catch (err) {
        return fail(err)
      }
    },
  )
}

const secretsText = (secrets: string[]) =>
  secrets.length ? ` Webhook signing secret (shown once): ${secrets.join(', ')}.` : ''
const secretsOf = (m: Monitor) => m.channels.filter((c) => c.secret).map((c) => c.secret!)

/** service_create_monitor: an http monitor of a URL, or one of a type without a url (its face words the answer). */
function createMonitor(getClient: () => SitehealthClient, fail: (err: unknown) => CallToolResult) {
  return async ({
    type,
    url,
    interval_seconds,
    grace_seconds,
    name,
    min_score,
    channels,
    tags,
    ...hostFields
  }: {
    type?: MonitorType
    url?: string
    interval_seconds?: number
    grace_seconds?: number
    host?: string
    port?: number
    starttls?: StartTls
    timeout_seconds?: number
    record_type?: DnsRecordType
    resolver?: string
    count?: number
    name?: string
    min_score?: number
    channels?: unknown[]
    tags?: string[]
  }): Promise<CallToolResult> => {
    const common: Partial<MonitorCreate> = {
      ...(interval_seconds !== undefined ? { interval_seconds } : {}),
      ...(name !== undefined ? { name } : {}),
      ...(min_score !== undefined ? { alerts: { min_score } } : {}),
      ...(channels ? { channels: channels as Ch[] } : {}),
      ...(tags ? { tags } : {}),
    }
    if (!typeFace(type).url) {
      try {
        // a url or assertions are the API's to refuse, naming the field
        const body = await getClient().createMonitor({
          type,
          ...(url !== undefined ? { url } : {}),
          ...(grace_seconds !== undefined ? { grace_seconds } : {}),
          // host, port, starttls, timeout_seconds, record_type, resolver, count: the API's to refuse on a type without them
          ...hostFields,
          ...common,
        } as MonitorCreate)
        return {
          content: [
            { type: 'text', text: typeFace(type).tool!.created(body) + secretsText(secretsOf(body)) },
          ],
          structuredContent: body as Record<string, unknown>,
        }
      } catch (err) {
        return fail(err)
      }
    }
    if (url === undefined)
      return fail(
        new ApiError(
          400,
          'invalid_url',
          `url is required for an http monitor (or give type ${URLLESS.map((f) => `"${f.type}"`).join(' or ')})`,
        ),
      )
    const target = toolTarget(url, fail)
    if (target.refused) return target.refused
    try {
      // grace_seconds is the API's to refuse on an http monitor, naming the field
      const body = await getClient().createMonitor({
        url: target.url,
        ...(grace_seconds !== undefined ? { grace_seconds } : {}),
        ...common,
      } as MonitorCreate)
      const secrets = body.channels.filter((c) => c.secret)
      const text =
        `${target.note.replace(': checking', ': watching')}Monitoring ${body.url} every ${body.interval_seconds} s as "${body.name}" (id ${body.id}); first run now.` +
        secretsText(secrets.map((c) => c.secret!))
      return { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
    } catch (err) {
      return fail(err)
    }
  }
}
