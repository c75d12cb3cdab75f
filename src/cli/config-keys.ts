/**
 * The settings `config set|get|list|unset` manage: their names on the command line, in the
 * config file, how each is checked before it is written, and how it is shown (a key never whole).
 */
import { normaliseBaseUrl } from '../client/client.js'
import type { ConfigFile } from '../client/config.js'
import { displayPrefix, isWellFormedApiKey } from '../contract/index.js'
import { UsageError } from './errors.js'

export const CONFIG_KEYS = ['api-url', 'api-key'] as const
export type ConfigKey = (typeof CONFIG_KEYS)[number]

export const FILE_FIELD: Record<ConfigKey, keyof ConfigFile> = { 'api-url': 'api_url', 'api-key': 'api_key' }

export function parseConfigKey(name: string): ConfigKey {
  const key = name.toLowerCase().replace(/_/g, '-') as ConfigKey
  if (!CONFIG_KEYS.includes(key))
    throw new UsageError(`Unknown setting ${JSON.stringify(name)}: use one of ${CONFIG_KEYS.join(', ')}.`)
  return key
}

/** The value as it will be written, or a UsageError saying what is wrong with it. */
export function normaliseConfigValue(key: ConfigKey, value: string): string {
  const v = value.trim()
  if (key === 'api-url') {
    let url: URL
    try {
      url = new URL(v)
    } catch {
      throw new UsageError(
        `${JSON.stringify(value)} is not a URL: give the API's base URL, like https://health.example.com.`,
      )
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`The API URL must be http or https (got ${url.protocol}).`)
    if (url.username || url.password)
      throw new UsageError('The API URL must not contain a username or password: the key is the credential.')
    return normaliseBaseUrl(url.href)
  }
  if (!isWellFormedApiKey(v))
    throw new UsageError(
      'That is not a sitehealth API key (shk_live_…), or it has a typo: its checksum does not match.',
    )
  return v
}

/** What `config get/list` print: the URL as is, a key only as its prefix. */
export function displayConfigValue(key: ConfigKey, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  return key === 'api-key' ? `${displayPrefix(value)}…` : value
}
