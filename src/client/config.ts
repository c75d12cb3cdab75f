/**
 * Where the client's API URL and key come from: flag > env > config file > default
 * (docs/decisions.md#the-cli-surface). The config file is `<oclif configDir>/config.json`, mode 0600.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_API_URL } from '../contract/routes.js'

export interface ConfigFile {
  api_url?: string
  api_key?: string
}

export type Source = 'flag' | 'env' | 'config' | 'default' | 'none'

export interface ClientSettings {
  apiUrl: string
  apiUrlSource: Source
  apiKey?: string
  apiKeySource: Source
  configPath: string
}

export const configPath = (configDir: string) => join(configDir, 'config.json')

export async function readConfigFile(configDir: string): Promise<ConfigFile> {
  try {
    const parsed = JSON.parse(await readFile(configPath(configDir), 'utf8'))
    return parsed && typeof parsed === 'object' ? (parsed as ConfigFile) : {}
  } catch {
    return {}
  }
}

/** Merge `patch` into the config file, written atomically with mode 0600. */
export async function writeConfigFile(configDir: string, patch: ConfigFile): Promise<string> {
  const file = configPath(configDir)
  const next = { ...(await readConfigFile(configDir)), ...patch }
  await mkdir(configDir, { recursive: true, mode: 0o700 })
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 })
  await rename(tmp, file)
  await chmod(file, 0o600)
  return file
}

export async function resolveClientSettings(
  configDir: string,
  flags: { apiUrl?: string; apiKey?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<ClientSettings> {
  const file = await readConfigFile(configDir)
  const pick = (flag?: string, envValue?: string, fileValue?: string): [string | undefined, Source] =>
    flag
      ? [flag, 'flag']
      : envValue
        ? [envValue, 'env']
        : fileValue
          ? [fileValue, 'config']
          : [undefined, 'none']
  const [apiUrl, apiUrlSource] = pick(flags.apiUrl, env.SITEHEALTH_API_URL, file.api_url)
  const [apiKey, apiKeySource] = pick(flags.apiKey, env.SITEHEALTH_API_KEY, file.api_key)
  return {
    apiUrl: apiUrl ?? DEFAULT_API_URL,
    apiUrlSource: apiUrl ? apiUrlSource : 'default',
    apiKey,
    apiKeySource,
    configPath: configPath(configDir),
  }
}
