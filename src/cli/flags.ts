/**
 * The flags every client command shares, and the extra ones of admin commands (docs/decisions.md#the-cli-surface).
 * `--api-url` and `--api-key` carry no oclif `env`: the precedence flag > env > config file >
 * default is resolved in one place, `resolveClientSettings`, so a config file can sit between.
 */
import { Args, Flags } from '@oclif/core'
import { DEFAULT_TIMEOUT_SECONDS } from '../client/client.js'
import { PAGE_SIZES } from '../contract/schemas.js'

export const clientFlags = {
  'api-url': Flags.string({
    description:
      'Base URL of the sitehealth API (else SITEHEALTH_API_URL, the config file, http://127.0.0.1:8787).',
    helpGroup: 'GLOBAL',
  }),
  'api-key': Flags.string({
    description: 'API key (else SITEHEALTH_API_KEY, then the config file).',
    helpGroup: 'GLOBAL',
  }),
  json: Flags.boolean({
    description: "Print the API's JSON body (or its error envelope) on stdout and nothing else.",
    helpGroup: 'GLOBAL',
    default: false,
  }),
  timeout: Flags.integer({
    description: `Give up on a request to the API after this many seconds (default ${DEFAULT_TIMEOUT_SECONDS}).`,
    env: 'SITEHEALTH_TIMEOUT',
    min: 1,
    helpGroup: 'GLOBAL',
  }),
  color: Flags.boolean({
    description:
      'Colour the output (default: on a terminal, unless NO_COLOR; FORCE_COLOR or CLICOLOR_FORCE force it). --no-color turns it off.',
    allowNo: true,
    helpGroup: 'GLOBAL',
  }),
}

/** Confirmation of a destructive or surprising action, for scripts. */
export const yesFlag = Flags.boolean({
  char: 'y',
  description: 'Do not ask for confirmation (required when stdin is not a terminal).',
  default: false,
})

/** Full ids and untruncated columns in tables. */
export const wideFlag = Flags.boolean({
  description: 'Show full ids and untruncated columns (a pipe always gets them).',
  default: false,
})

export const adminFlags = {
  'api-url': clientFlags['api-url'],
  json: clientFlags.json,
  timeout: clientFlags.timeout,
  color: clientFlags.color,
  'admin-token': Flags.string({
    description:
      'Admin token of the server (else SITEHEALTH_ADMIN_TOKEN; on a loopback API URL, <data-dir>/admin-token).',
    env: 'SITEHEALTH_ADMIN_TOKEN',
    helpGroup: 'ADMIN',
  }),
  'data-dir': Flags.string({
    description:
      'Data dir of a local `sitehealth serve`, where its admin-token file is (default: the oclif data dir).',
    env: 'SITEHEALTH_DATA_DIR',
    helpGroup: 'ADMIN',
  }),
}

/** The flags of every command that shows one page of a list, and their reading. */
export const pageFlags = {
  limit: Flags.option({
    options: PAGE_SIZES.map(String) as ['10', '25', '50'],
    description: 'Page size (server default 10).',
  })(),
  cursor: Flags.string({ description: 'Start after this position: the next_cursor of a previous page.' }),
}

export const pageOf = (flags: { limit?: string; cursor?: string }) => ({
  limit: flags.limit ? Number(flags.limit) : undefined,
  cursor: flags.cursor,
})

/** The one argument of the commands that act on one monitor, and what a 404 suggests. */
export const monitorIdArgs = {
  id: Args.string({
    description: 'Id of the monitor (from `monitors list`; the short id works too).',
    required: true,
    ignoreStdin: true,
  }),
}
export const MONITOR_NOT_FOUND_HINT = '`sitehealth monitors list` lists the ids of your monitors.'

export const statusPageIdArgs = {
  id: Args.string({
    description: 'Id of the status page (from `status-pages list`; the short id works too).',
    required: true,
    ignoreStdin: true,
  }),
}
export const STATUS_PAGE_NOT_FOUND_HINT = '`sitehealth status-pages list` lists the ids of your status pages.'

/** `PAGE INCIDENT`: a status page and one of its incidents (short ids work). */
export const statusIncidentArgs = {
  page: statusPageIdArgs.id,
  incident: Args.string({
    description: 'Id of the incident (from `status-pages incidents list PAGE`; the short id works too).',
    required: true,
    ignoreStdin: true,
  }),
}
export const STATUS_INCIDENT_NOT_FOUND_HINT =
  '`sitehealth status-pages incidents list PAGE` lists the incidents of a page.'

export const maintenanceIdArgs = {
  id: Args.string({
    description: 'Id of the maintenance window (from `maintenance list`; the short id works too).',
    required: true,
    ignoreStdin: true,
  }),
}
export const MAINTENANCE_NOT_FOUND_HINT =
  '`sitehealth maintenance list` lists the ids of your maintenance windows.'
