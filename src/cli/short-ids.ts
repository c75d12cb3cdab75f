/**
 * Short ids: tables show the last characters of an id (table.ts `shortId`), and the commands that
 * take an id accept such a tail back. A tail is looked up among what the user can list (their
 * newest checks, the keys); a full UUID is passed on untouched.
 */
import { ApiError, type SitehealthClient } from '../client/client.js'
import { UsageError } from './errors.js'
import { isUuid } from '../shared/index.js'

/** At least 4 characters, so a typo rarely matches something else. */
const TAIL = /^[0-9a-f-]{4,35}$/i

/** How far back `get SHORT` looks: the newest checks, in pages of 50. */
export const SHORT_ID_PAGES = 4

function pick(tail: string, ids: string[], what: string, scope: string): string {
  const t = tail.toLowerCase()
  const hits = [...new Set(ids.filter((id) => id.toLowerCase().endsWith(t)))]
  if (hits.length === 1) return hits[0]
  if (hits.length === 0)
    throw new ApiError(404, 'not_found', `No ${what} id ends with ${tail} among ${scope}.`)
  throw new UsageError(
    `${tail} matches ${hits.length} ${what} ids (${hits.slice(0, 3).join(', ')}${hits.length > 3 ? ', …' : ''}): give more characters.`,
  )
}

/** Neither a full id nor a short one: say what is accepted (the API would only say "a UUID"). */
function notAnId(arg: string, what: string, lister: string): UsageError {
  return new UsageError(
    `${JSON.stringify(arg)} is not a ${what} id: give the full id or its short id, the last 4 or more characters (0-9, a-f) that \`${lister}\` shows.`,
  )
}

export async function resolveCheckId(client: Pick<SitehealthClient, 'recent'>, arg: string): Promise<string> {
  if (isUuid(arg)) return arg
  if (!TAIL.test(arg)) throw notAnId(arg, 'check', 'sitehealth recent')
  const ids: string[] = []
  let cursor: string | undefined
  for (let page = 0; page < SHORT_ID_PAGES; page++) {
    const res = await client.recent({ limit: 50, cursor })
    ids.push(...res.checks.map((c) => c.id))
    // the newest match wins the search; an older one sharing 8 random characters is vanishingly rare
    if (!res.next_cursor || ids.some((id) => id.toLowerCase().endsWith(arg.toLowerCase()))) break
    cursor = res.next_cursor
  }
  return pick(arg, ids, 'check', `your ${ids.length} newest checks (give the full id for older ones)`)
}

export async function resolveKeyId(client: Pick<SitehealthClient, 'listKeys'>, arg: string): Promise<string> {
  if (isUuid(arg)) return arg
  if (!TAIL.test(arg)) throw notAnId(arg, 'key', 'sitehealth keys list')
  const { keys } = await client.listKeys()
  return pick(
    arg,
    keys.map((k) => k.id),
    'key',
    'the keys',
  )
}

/** How far back a monitor's short id is looked up: the newest monitors, in pages of 50. */
export const SHORT_MONITOR_ID_PAGES = 20

export async function resolveMonitorId(
  client: Pick<SitehealthClient, 'listMonitors'>,
  arg: string,
): Promise<string> {
  if (isUuid(arg)) return arg
  if (!TAIL.test(arg)) throw notAnId(arg, 'monitor', 'sitehealth monitors list')
  const ids: string[] = []
  let cursor: string | undefined
  for (let page = 0; page < SHORT_MONITOR_ID_PAGES; page++) {
    const res = await client.listMonitors({ limit: 50, cursor })
    ids.push(...res.monitors.map((m) => m.id))
    if (!res.next_cursor) break
    cursor = res.next_cursor
  }
  return pick(arg, ids, 'monitor', `your ${ids.length} monitors`)
}

export async function resolveMaintenanceId(
  client: Pick<SitehealthClient, 'listMaintenance'>,
  arg: string,
): Promise<string> {
  if (isUuid(arg)) return arg
  if (!TAIL.test(arg)) throw notAnId(arg, 'maintenance window', 'sitehealth maintenance list')
  const { maintenance_windows } = await client.listMaintenance()
  return pick(
    arg,
    maintenance_windows.map((w) => w.id),
    'maintenance window',
    'your maintenance windows',
  )
}

export async function resolveStatusPageId(
  client: Pick<SitehealthClient, 'listStatusPages'>,
  arg: string,
): Promise<string> {
  if (isUuid(arg)) return arg
  if (!TAIL.test(arg)) throw notAnId(arg, 'status page', 'sitehealth status-pages list')
  const { status_pages } = await client.listStatusPages()
  return pick(
    arg,
    status_pages.map((p) => p.id),
    'status page',
    'your status pages',
  )
}

/** An incident of a status page by its id or the tail of it. */
export async function resolveStatusIncidentId(
  client: Pick<SitehealthClient, 'listStatusIncidents'>,
  pageId: string,
  arg: string,
): Promise<string> {
  if (isUuid(arg)) return arg
  if (!TAIL.test(arg)) throw notAnId(arg, 'incident', 'sitehealth status-pages incidents list PAGE')
  const { incidents } = await client.listStatusIncidents(pageId)
  return pick(
    arg,
    incidents.map((i) => i.id),
    'incident',
    "this page's incidents",
  )
}

/** The page and incident a command names (`PAGE INCIDENT`), short ids resolved. */
export async function resolveIncidentTarget(
  client: Pick<SitehealthClient, 'listStatusPages' | 'listStatusIncidents'>,
  args: { page: string; incident: string },
): Promise<{ page: string; incident: string }> {
  const page = await resolveStatusPageId(client, args.page)
  return { page, incident: await resolveStatusIncidentId(client, page, args.incident) }
}
