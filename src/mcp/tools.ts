/**
 * The five tools of the companion MCP server (docs/mcp.md#tools), registered on an McpServer. Every tool
 * reaches the API through SitehealthClient only; its structuredContent is the API's JSON body as
 * received, its output schema is the contract schema of that body, and API failures come back as
 * tool errors (`isError: true`, "code: message"), never as protocol errors.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { ApiError, type SitehealthClient } from '../client/client.js'
import {
  CreditBalance,
  Health,
  MAX_URL_LENGTH,
  PAGE_SIZES,
  RecentChecks,
  RecentQuery,
  RunResult,
  SavedCheck,
  SIGNAL_NAMES,
  TARGET_URL_PATTERN,
  type RecentCheck,
} from '../contract/index.js'
import { registerMaintenanceTools } from './maintenance-tools.js'
import { registerMonitorTools } from './monitor-tools.js'
import { toolTarget, withHttpHint } from './target.js'
import { registerStatusPageTools } from './status-page-tools.js'
import { registerStatusIncidentTools } from './status-incident-tools.js'

export const MCP_SERVER_NAME = 'sitehealth-mcp'

export const TOOL_NAMES = [
  'service_health',
  'service_get_credits',
  'service_run_website_check',
  'service_get_check_result',
  'service_get_recent_checks',
] as const

/** Gives the client a tool call should use: one per process (stdio) or per session (http). */
export type ClientFactory = () => SitehealthClient

export interface ToolsOptions {
  /**
   * How a user sets a key, for the tool error when none is configured (the wording differs
   * between the stdio server, which reads env/config, and the http server, which takes a header).
   */
  noKeyHint?: string
}

const INVALID_URL_MESSAGE =
  'invalid_url: Only http and https URLs (or a bare host, meaning https) can be checked'

/** Inputs: constraints are declared here; the API re-checks everything. */
const RunInput = {
  url: z
    .string()
    .max(MAX_URL_LENGTH, { message: `invalid_url: The URL is longer than ${MAX_URL_LENGTH} characters` })
    // spelled out case by case: JSON Schema patterns carry no `i` flag, and the API accepts HTTP://
    .regex(new RegExp(TARGET_URL_PATTERN), { message: INVALID_URL_MESSAGE })
    .meta({
      description:
        'The http:// or https:// URL of the page to check, e.g. https://example.com/; a bare host (example.com, 127.0.0.1:8000) means https.',
    }),
}
const GetInput = {
  id: SavedCheck.shape.id.meta({
    description: 'Id (UUID) of a saved check: `data.id` of a run result or `id` of a recent-checks item.',
  }),
}
const RecentInput = {
  limit: z.literal(PAGE_SIZES).optional().meta({ description: 'Page size: 10, 25 or 50 (default 10).' }),
  cursor: RecentQuery.shape.cursor.meta({
    description:
      'The `next_cursor` (an ISO 8601 date-time) of the previous page, to get the next, older page.',
  }),
}

/**
 * Output schemas: the contract schemas' shapes. Passing the shape (not the schema itself) keeps the
 * generated JSON Schema's root a plain `type: object`, as MCP requires, instead of a `$ref` to the
 * schema's registered id.
 */
const outputs = {
  health: Health.shape,
  credits: CreditBalance.shape,
  run: RunResult.shape,
  check: SavedCheck.shape,
  recent: RecentChecks.shape,
}

const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
}

const RUN: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
}

type Fail = (err: unknown) => CallToolResult

/** Registers the five tools on `server`; each call asks `getClient` for the client to use. */
export function registerTools(server: McpServer, getClient: ClientFactory, opts: ToolsOptions = {}): void {
  const fail: Fail = (err: unknown) => toolError(err, opts.noKeyHint)
  registerServiceTools(server, getClient, fail)
  registerCheckTools(server, getClient, fail)
  registerMonitorTools(server, getClient, fail)
  registerStatusPageTools(server, getClient, fail)
  registerStatusIncidentTools(server, getClient, fail)
  registerMaintenanceTools(server, getClient, fail)
}

/** The free tools about the service itself: is the API up, how many credits are left. */
function registerServiceTools(server: McpServer, getClient: ClientFactory, fail: Fail): void {
  server.registerTool(
    'service_health',
    {
      title: 'Check that the sitehealth API is up',
      description:
        'Reports whether the sitehealth API is reachable, with its service name and version. Free: needs no ' +
        'API key and costs no credits. Use it to diagnose connection problems before other tools, not to ' +
        'check a website (use service_run_website_check for that).',
      inputSchema: {},
      outputSchema: outputs.health,
      annotations: { ...READ_ONLY, title: 'API health' },
    },
    async () => {
      try {
        const client = getClient()
        const body = await client.health()
        return ok(`${client.baseUrl}: ${body.service} API ${body.version} is up.`, body)
      } catch (err) {
        return fail(err)
      }
    },
  )

  server.registerTool(
    'service_get_credits',
    {
      title: 'Show remaining credits',
      description:
        'Returns how many credits the API key has left (credits_remaining) and how credits are consumed. ' +
        'Free: costs no credits. Each successful service_run_website_check costs 1 credit, so call this ' +
        'before running many checks.',
      inputSchema: {},
      outputSchema: outputs.credits,
      annotations: { ...READ_ONLY, title: 'Credit balance' },
    },
    async () => {
      try {
        const body = await getClient().credits()
        return ok(`${plural(body.credits_remaining, 'credit')} remaining. ${body.usage_note}`, body)
      } catch (err) {
        return fail(err)
      }
    },
  )
}

/** The check tools: run one (1 credit), read a saved one, list the recent ones. */
function registerCheckTools(server: McpServer, getClient: ClientFactory, fail: Fail): void {
  server.registerTool(
    'service_run_website_check',
    {
      title: 'Run a website health check',
      description:
        'Runs a live health check of one http or https URL now: reachability, HTTPS/SSL, response time, ' +
        'security headers and performance signals, a 0-100 health score, a risk level and a one-sentence ' +
        'summary. The result is saved (its id is data.id). COST: 1 credit per successful saved check; an ' +
        'invalid or blocked URL, a site that cannot be reached at all, or a lack of credits costs nothing. ' +
        'Limited to 10 runs per minute per key. Use it only when fresh results are needed: to read a check ' +
        'run earlier use service_get_check_result (by id) or service_get_recent_checks, which are free.',
      inputSchema: RunInput,
      outputSchema: outputs.run,
      annotations: { ...RUN, title: 'Run a website check (1 credit)' },
    },
    async ({ url }) => {
      const target = toolTarget(url, fail)
      if (target.refused) return target.refused
      try {
        const body = await getClient().runCheck(target.url)
        const d = body.data
        return ok(
          `${target.note}${hostOf(d.url)}: health ${d.healthScore}/100, ${d.riskLevel} risk - ${d.summary} ` +
            `${performanceWords(d.checks.pagespeed.performanceScore, d.checks.pagespeed.method)}` +
            `(check id ${d.id}, ${plural(body.credits.remaining, 'credit')} left)`,
          body,
        )
      } catch (err) {
        return fail(withHttpHint(err, target.plainHttp))
      }
    },
  )

  server.registerTool(
    'service_get_check_result',
    {
      title: 'Get a saved check result',
      description:
        'Returns one saved check by its id: URL, health score, risk level, summary and the five signals ' +
        '(reachability, https_ssl, response_time, security_headers, pagespeed), each with a status and a ' +
        'message. Free: costs no credits and does not re-run the check. Use it for the details of a check ' +
        'whose id you have (from service_run_website_check or service_get_recent_checks).',
      inputSchema: GetInput,
      outputSchema: outputs.check,
      annotations: { ...READ_ONLY, title: 'Saved check result' },
    },
    async ({ id }) => {
      try {
        const body = await getClient().getCheck(id)
        const signals = SIGNAL_NAMES.map((n) => `${n} ${body.checks[n].status}`).join(', ')
        const ps = body.checks.pagespeed.details
        return ok(
          `${hostOf(body.url)}: health ${body.health_score}/100, ${body.risk_level} risk - ${body.summary} ` +
            `Signals: ${signals}. ` +
            `${performanceWords(ps?.performanceScore, ps?.method)}` +
            `(check id ${body.id}, checked ${body.created_at})`,
          body,
        )
      } catch (err) {
        return fail(err)
      }
    },
  )

  server.registerTool(
    'service_get_recent_checks',
    {
      title: 'List recent saved checks',
      description:
        "Lists the saved checks of this API key's user, newest first: id, URL, health score, risk level " +
        'and time of each. Free: costs no credits. Pages hold 10, 25 or 50 items; when next_cursor is not ' +
        'null, call again with cursor set to it for older checks. Use it to find earlier results (and ' +
        'their ids for service_get_check_result) instead of re-running checks.',
      inputSchema: RecentInput,
      outputSchema: outputs.recent,
      annotations: { ...READ_ONLY, title: 'Recent checks' },
    },
    async ({ limit, cursor }) => {
      try {
        const body = await getClient().recent({ limit, cursor })
        return ok(recentText(body.checks, body.next_cursor), body)
      } catch (err) {
        return fail(err)
      }
    },
  )
}

/** A new McpServer named sitehealth-mcp with the five tools. */
export function createMcpServer(
  version: string,
  getClient: ClientFactory,
  opts: ToolsOptions = {},
): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'sitehealth', version },
    {
      instructions:
        'Website health checks through the sitehealth API. service_run_website_check costs 1 credit per ' +
        'successful check; every other tool is free. Prefer reading saved results (service_get_recent_checks, ' +
        'service_get_check_result) over re-running checks.',
    },
  )
  registerTools(server, getClient, opts)
  return server
}

function ok(text: string, body: object): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
}

/** "Performance 91/100, measured by Lighthouse in Chromium. " or "..., estimated without a browser. "; '' when unknown. */
function performanceWords(score: unknown, method: unknown): string {
  if (typeof score !== 'number' || (method !== 'lab' && method !== 'estimate')) return ''
  return `Performance ${score}/100, ${method === 'lab' ? 'measured by Lighthouse in Chromium' : 'estimated without a browser'}. `
}

/**
 * An API failure as a tool error: "code: message", plus the request id and Retry-After when known.
 * No structuredContent, so the declared output schema does not apply (the SDK skips validation of
 * results with isError, and clients only validate structuredContent when present).
 */
export function toolError(err: unknown, noKeyHint?: string): CallToolResult {
  let text: string
  if (err instanceof ApiError) {
    const message = err.code === 'no_api_key' && noKeyHint ? noKeyHint : err.message
    text = `${err.code}: ${message}`
    if (err.retryAfter !== undefined && (err.status === 429 || err.status === 503))
      text += ` Retry after ${err.retryAfter} s.`
    if (err.requestId) text += ` (request id ${err.requestId})`
  } else {
    text = `internal_error: ${err instanceof Error ? err.message : String(err)}`
  }
  return { content: [{ type: 'text', text }], isError: true }
}

function recentText(checks: RecentCheck[], next: string | null): string {
  if (checks.length === 0)
    return next ? `No checks on this page; next cursor ${next}.` : 'No saved checks yet.'
  const lines = checks.map(
    (c) => `- ${c.created_at} ${c.url}: health ${c.health_score}/100, ${c.risk_level} risk (id ${c.id})`,
  )
  const tail = next ? `More: call again with cursor ${next}.` : 'No older checks.'
  return `${plural(checks.length, 'saved check')}, newest first:\n${lines.join('\n')}\n${tail}`
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url
  } catch {
    return url
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
