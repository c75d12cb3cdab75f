/**
 * The shape of `sitehealth.yaml` (docs/decisions.md#monitors-as-code), built from the same zod
 * shapes the API validates with, so the file, the API and the shipped JSON Schema
 * (`schema/sitehealth.schema.json`, generated from this by `scripts/build-schema.js`, and served by
 * `serve` at `PATHS.fileSchema`) can never
 * disagree. A monitor here is a MonitorCreate with a required `ref`, `every` instead of
 * interval_seconds, and channels by name; a status page lists monitors by ref.
 */
import { z } from 'zod'
import { channelRequestsText, providerFace, type ChannelType } from './channels.js'
import { ChannelRequest, HttpMonitorCreate, MonitorRef, MonitorTypeField, PING_COUNT } from './monitors.js'
import { StatusPageCreate } from './status-pages.js'
import { MAX_URL_LENGTH, PATHS } from './routes.js'
import { MaintenanceCreate, maintenanceProblem } from './monitoring.js'
import { Host, Port, StartTlsField } from './monitor-target.js'
import { DnsRecordTypeField, Resolver } from './dns.js'

export const NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'
const ChannelName = z
  .string()
  .regex(new RegExp(NAME_PATTERN), {
    message: 'a channel name is 1 to 64 letters, digits, dots, dashes and underscores',
  })
  .meta({ description: 'A channel named under `channels:`.' })

/** `90`, `90s`, `5m`, `1h`, `1d`. */
export const EVERY_PATTERN = '^\\s*\\d+\\s*[smhdSMHD]?\\s*$'
const Every = z
  .union([
    z.int().min(1),
    z.string().regex(new RegExp(EVERY_PATTERN), { message: 'write an interval such as 90s, 5m, 1h or 1d' }),
  ])
  .meta({ description: 'How often: 90s, 5m, 1h, 1d, or seconds (default 5m).' })

/** `${VAR}` (`$$` is a literal `$`): a value taken from the environment when deploying. */
export const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$\$/g
const Placeholder = z
  .string()
  .max(MAX_URL_LENGTH)
  .regex(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/, { message: 'not a ${VAR} placeholder' })
  .meta({ description: 'A value holding ${VAR}, taken from the environment when deploying.' })

/**
 * A channel as written in the file: the request shape without the labels deploy adds itself, each
 * of the provider's fields either its value or a value holding `${VAR}` (checked against the field's
 * own schema once substituted, in load.ts), so an editor validating with the schema takes both.
 */
const FileChannel = z
  .discriminatedUnion(
    'type',
    (ChannelRequest.options as readonly z.ZodObject[]).map((o) => {
      const face = providerFace(o.shape.type.value as ChannelType)
      const fields = Object.fromEntries(
        Object.entries(face.fields).map(([k, f]) => [k, z.union([f.schema, Placeholder])]),
      )
      return o.omit({ name: true, source: true }).extend(fields)
    }) as unknown as [z.ZodObject, ...z.ZodObject[]],
  )
  .meta({
    description: `${channelRequestsText()}. Values may use \${VAR} (taken from the environment when deploying, never written to a file).`,
  })

const M = HttpMonitorCreate.shape
export const FileMonitor = z
  .strictObject({
    ref: MonitorRef,
    type: MonitorTypeField,
    name: M.name,
    url: M.url,
    every: Every.optional(),
    host: Host.optional().meta({ description: 'tcp and tls monitors: the host name or IP address watched.' }),
    port: Port.optional().meta({
      description:
        "tcp monitors: the port (required); tls monitors: default 443, or the STARTTLS protocol's own.",
    }),
    starttls: StartTlsField.optional(),
    record_type: DnsRecordTypeField.optional(),
    resolver: Resolver.optional(),
    count: z
      .int()
      .min(PING_COUNT.min)
      .max(PING_COUNT.max)
      .optional()
      .meta({ description: `ping monitors: echo requests each run sends (default ${PING_COUNT.default}).` }),
    timeout: Every.optional().meta({
      description: 'tcp and tls monitors: how long a run may take before it fails: 5s, 30s (default 10s).',
    }),
    grace: Every.optional().meta({
      description: 'Heartbeat monitors: how late a beat may be before down: 90s, 10m, 1h (default 5m).',
    }),
    paused: z.boolean().optional().meta({ description: 'Keep the monitor paused (default: not managed).' }),
    alerts: M.alerts,
    assertions: M.assertions,
    tags: M.tags,
    channels: z
      .array(ChannelName)
      .max(10)
      .optional()
      .meta({ description: 'Names of channels under `channels:`.' }),
  })
  .meta({ description: 'One monitor; `ref` names it across deploys.' })
export type FileMonitor = z.infer<typeof FileMonitor>

const P = StatusPageCreate.shape
export const FileStatusPage = z.strictObject({
  slug: P.slug,
  title: P.title,
  description: P.description,
  show_urls: P.show_urls,
  monitors: z.array(MonitorRef).max(100).meta({ description: 'Monitors on the page, by ref, in order.' }),
})
export type FileStatusPage = z.infer<typeof FileStatusPage>

const W = MaintenanceCreate.shape
export const FileMaintenance = z
  .strictObject({
    name: W.name.meta({ description: 'The window’s identity across deploys, unique in the file.' }),
    monitors: z
      .union([z.literal('all'), z.array(MonitorRef).min(1).max(1000)])
      .meta({ description: 'Monitors by ref, or `all` (every monitor of the account).' }),
    starts_at: W.starts_at,
    ends_at: W.ends_at,
    weekly: W.weekly,
  })
  .superRefine((w, ctx) => {
    const p = maintenanceProblem(w)
    if (p) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message })
  })
  .meta({ description: 'A maintenance window: one-off (starts_at, ends_at) or weekly.' })
export type FileMaintenance = z.infer<typeof FileMaintenance>

export const SitehealthFile = z
  .strictObject({
    channels: z.record(ChannelName, FileChannel).optional().meta({ description: 'Alert channels by name.' }),
    monitors: z.array(FileMonitor).optional(),
    status_pages: z.array(FileStatusPage).optional(),
    maintenance: z.array(FileMaintenance).optional().meta({ description: 'Maintenance windows, by name.' }),
  })
  .meta({
    title: 'sitehealth.yaml',
    description:
      'Monitors as code: `sitehealth deploy` makes the account match this file (monitors by ref), `sitehealth test` runs its monitors once, `sitehealth pull` writes one.',
  })
export type SitehealthFile = z.infer<typeof SitehealthFile>
export type FileChannel = z.infer<typeof FileChannel>

/**
 * Where a server serves the schema: `serve` answers it, and `pull` points the editor modeline at
 * the server it talks to. Never a package-registry URL: a name on a registry that we do not hold
 * could be claimed by anyone and would then decide what editors fetch.
 */
export function schemaUrl(apiBase: string): string {
  return `${apiBase.replace(/\/+$/, '')}${PATHS.fileSchema}`
}

/**
 * The JSON Schema that ships as schema/sitehealth.schema.json and that `serve` serves with its own
 * URL as `$id` (input side: what a file may say).
 */
export function fileJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(SitehealthFile, { target: 'draft-2020-12', io: 'input' })
}
