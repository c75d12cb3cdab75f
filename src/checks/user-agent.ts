/**
 * The outbound User-Agent: `sitehealth/<version> (+<docs url>)`, so a site owner reading their logs
 * can see who is checking them and where to read about it (the convention of Googlebot & co.).
 */
import { readFileSync } from 'node:fs'

export const DOCS_URL = 'https://github.com/sitehealth/sitehealth#readme'

let cached: string | undefined

export function defaultUserAgent(): string {
  cached ??= `sitehealth/${packageVersion()} (+${DOCS_URL})`
  return cached
}

function packageVersion(): string {
  try {
    // the same two levels up from src/checks/ (tsx, tests) and from dist/checks/ (the build)
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown
    }
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0'
  } catch {
    return '0.0.0'
  }
}
