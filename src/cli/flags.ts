/**
 * The flags every client command shares, and the extra ones of admin commands (DESIGN.md §2).
 * `--api-url` and `--api-key` carry no oclif `env`: the precedence flag > env > config file >
 * default is resolved in one place, `resolveClientSettings`, so a config file can sit between.
 */
import { Flags } from '@oclif/core'

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
}

export const adminFlags = {
  'api-url': clientFlags['api-url'],
  json: clientFlags.json,
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
