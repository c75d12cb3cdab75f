/**
 * Alert channel providers as every face sees them: each provider's fields on the wire, which of
 * them are secrets (sealed at rest, masked in answers), and the words the CLI, the dashboard, the
 * MCP tools and `sitehealth.yaml` show for it. The request union (`ChannelRequest`) is built from
 * this list, so a provider is one member here plus its sending half in
 * `src/monitors/channels/providers/` (docs/architecture.md, "A new alert provider").
 */
import { z } from 'zod'
import { MAX_URL_LENGTH } from './routes.js'

/** One field of a provider's request (`url`, `to`, …). */
export interface ChannelField {
  /** Its schema in the request. */
  schema: z.ZodType<string, string>
  /** A credential: sealed at rest, never shown whole in an answer. */
  secret: boolean
  /** The words of its form input in the dashboard. */
  label: string
  /** A value to show as an example in a form. */
  example: string
  /** Spaces around the value are dropped (an address read from an environment variable). */
  trim?: boolean
}

export interface ChannelProviderFace {
  /** Its fields, in the order forms ask for them. */
  fields: Record<string, ChannelField>
  /** The field that names where alerts go (masked in answers; with the type, its fingerprint). */
  target: string
  /** The `monitors create` flag that adds one (`--slack URL`) and its help. */
  flag: { name: string; description: string }
  /** Its name in a sentence (`Slack`). */
  title: string
  /** What it takes, in a sentence (`their incoming-webhook URL`). */
  takes: string
  /** A new channel of this provider gets a signing secret, shown once. */
  signed?: boolean
}

const HttpUrl = z
  .string()
  .min(1)
  .max(MAX_URL_LENGTH)
  .meta({ format: 'uri', description: 'A full http or https URL.' })

/** A URL that is a credential: whoever has a Slack, Discord or Teams webhook URL can post to it. */
const urlField = (): ChannelField => ({
  schema: HttpUrl,
  secret: true,
  label: 'URL',
  example: 'https://hooks.example.com/…',
})
const INCOMING = 'their incoming-webhook URL'

/** Every provider, by its `type`; the order is the order of every list and form. */
export const CHANNEL_PROVIDERS = {
  webhook: {
    title: 'webhook',
    takes: INCOMING,
    fields: { url: urlField() },
    target: 'url',
    flag: { name: 'webhook', description: 'Webhook URL (signed JSON POST).' },
    signed: true,
  },
  slack: {
    title: 'Slack',
    takes: INCOMING,
    fields: { url: urlField() },
    target: 'url',
    flag: { name: 'slack', description: 'Slack incoming-webhook URL.' },
  },
  discord: {
    title: 'Discord',
    takes: INCOMING,
    fields: { url: urlField() },
    target: 'url',
    flag: { name: 'discord', description: 'Discord webhook URL.' },
  },
  teams: {
    title: 'Teams',
    takes: INCOMING,
    fields: { url: urlField() },
    target: 'url',
    flag: { name: 'teams', description: 'Microsoft Teams incoming-webhook URL.' },
  },
  email: {
    title: 'email',
    takes: 'an address',
    fields: {
      to: {
        schema: z.email().max(254).meta({ description: 'Recipient address.' }),
        secret: false,
        label: 'email address',
        example: 'ops@example.com',
        trim: true,
      },
    },
    target: 'to',
    flag: { name: 'email', description: 'Email address (the server needs --smtp-url).' },
  },
} as const satisfies Record<string, ChannelProviderFace>

export type ChannelType = keyof typeof CHANNEL_PROVIDERS
export const CHANNEL_TYPES = Object.keys(CHANNEL_PROVIDERS) as [ChannelType, ...ChannelType[]]

export function providerFace(type: ChannelType): ChannelProviderFace {
  return CHANNEL_PROVIDERS[type]
}

/** The value of a request's target field (`url`, `to`, …). */
export function channelTarget(r: { type: ChannelType } & Record<string, unknown>): string {
  return String(r[providerFace(r.type).target])
}

/**
 * A request of `type` with `target` in its target field (what a one-input form or flag gives); an
 * unknown type is left for the schema to refuse.
 */
export function channelRequestOf(type: string, target: string): Record<string, string> {
  if (!Object.hasOwn(CHANNEL_PROVIDERS, type)) return { type }
  return { type, [providerFace(type as ChannelType).target]: target }
}

/** Providers grouped by the fields they take (`url` → webhook, slack, …), in list order. */
export function channelShapeGroups(): Array<[fields: string, types: ChannelType[]]> {
  const out = new Map<string, ChannelType[]>()
  for (const t of CHANNEL_TYPES) {
    const key = Object.keys(providerFace(t).fields).join(', ')
    out.set(key, [...(out.get(key) ?? []), t])
  }
  return [...out]
}

/** The request shapes as words: `{type: webhook|slack|discord|teams, url} or {type: "email", to}`. */
export function channelShapesText(): string {
  return channelShapeGroups()
    .map(([fields, types]) =>
      types.length === 1 ? `{type: "${types[0]}", ${fields}}` : `{type: ${types.join('|')}, ${fields}}`,
    )
    .join(' or ')
}

/** "webhook, slack, discord and teams" */
export function listWords(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}

/** What a monitors-as-code file (docs/decisions.md#monitors-as-code) says about a channel, beside its target. */
const ChannelLabels = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "The channel's name in a monitors-as-code file (sitehealth.yaml)." }),
  source: z.string().max(MAX_URL_LENGTH).optional().meta({
    description:
      'The target as written in a monitors-as-code file, `${VAR}` placeholders unresolved (never their values), so `sitehealth pull` can write it back.',
  }),
}

type Fields<T extends ChannelType> = (typeof CHANNEL_PROVIDERS)[T]['fields']
type SchemaOf<F> = F extends { schema: infer S } ? S : never
type RequestMember<T extends ChannelType> = z.ZodObject<
  { type: z.ZodLiteral<T> } & { [F in keyof Fields<T>]: SchemaOf<Fields<T>[F]> } & typeof ChannelLabels,
  z.core.$strict
>
type RequestMembers = { [T in ChannelType]: RequestMember<T> }[ChannelType]

function requestMember<T extends ChannelType>(type: T): RequestMember<T> {
  const fields = Object.fromEntries(Object.entries(providerFace(type).fields).map(([k, f]) => [k, f.schema]))
  return z.strictObject({ type: z.literal(type), ...fields, ...ChannelLabels }) as unknown as RequestMember<T>
}

/** "`{type, url}` for webhook, slack, discord and teams, `{type: "email", to}` for email" */
export function channelRequestsText(): string {
  return channelShapeGroups()
    .map(([fields, types]) =>
      types.length === 1
        ? `\`{type: "${types[0]}", ${fields}}\` for ${types[0]}`
        : `\`{type, ${fields}}\` for ${listWords(types)}`,
    )
    .join(', ')
}

export const ChannelRequest = z
  .discriminatedUnion(
    'type',
    CHANNEL_TYPES.map((t) => requestMember(t)) as unknown as [RequestMembers, ...RequestMembers[]],
  )
  .meta({ id: 'ChannelRequest', description: `Where alerts go: ${channelRequestsText()}.` })
export type ChannelRequest = z.infer<typeof ChannelRequest>

export const Channel = z
  .object({
    id: z.uuid(),
    type: z.enum(CHANNEL_TYPES),
    target: z.string().meta({ description: 'The URL or address, masked.' }),
    name: z.string().nullable().meta({ description: 'Its name in a monitors-as-code file; null otherwise.' }),
    source: z.string().nullable().meta({
      description:
        'The target as written in a monitors-as-code file (`${VAR}` placeholders unresolved); null otherwise.',
    }),
    fingerprint: z.string().meta({
      description:
        '`sha256:` and the hex SHA-256 of `<type>\\n<target>`: tells a client whether the channel goes to a target it knows, without the API revealing the target.',
    }),
    secret: z.string().optional().meta({
      description:
        'Webhook channels only, and only in the response that created the channel: the HMAC-SHA256 signing secret. Never shown again.',
    }),
  })
  .meta({ id: 'Channel' })
export type Channel = z.infer<typeof Channel>
