/**
 * Where an admin command's token comes from: --admin-token / SITEHEALTH_ADMIN_TOKEN (oclif reads
 * the env for the flag), else, only for a server on this machine, the token file that `serve`
 * writes into its data dir. The file is never sent to a remote URL: a token for the local server
 * must not leak to another host by mistake. Nor is it sent to whatever happens to listen on the
 * loopback port: only to the live `serve` that owns the data dir and listens there (its
 * `serve.json`), so a listener squatting the port while `serve` is down never receives it.
 */
import { readFile } from 'node:fs/promises'
import { isIP } from 'node:net'
import { join } from 'node:path'
import { ApiError } from '../client/client.js'
import { ADMIN_TOKEN_HOWTO, adminTokenProblem } from '../contract/admin-token.js'
import { ownerMismatch, readOwnerFile } from '../server/owner-file.js'

export const ADMIN_TOKEN_FILE = 'admin-token'

/** True for 127.0.0.0/8, ::1, IPv4-mapped loopback, `localhost` and `*.localhost`. */
export function isLoopbackUrl(apiUrl: string): boolean {
  let host: string
  try {
    host = new URL(apiUrl).hostname.toLowerCase()
  } catch {
    return false
  }
  host = host.replace(/^\[|\]$/g, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (isIP(host) === 4) return host.startsWith('127.')
  if (isIP(host) === 6) {
    if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)
    if (mapped) return mapped[1].startsWith('127.')
    // URL normalises ::ffff:127.0.0.1 to ::ffff:7f00:1
    return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)
  }
  return false
}

export async function resolveAdminToken(o: {
  flag?: string
  apiUrl: string
  dataDir: string
}): Promise<string> {
  if (o.flag) {
    const problem = adminTokenProblem(o.flag)
    if (problem)
      throw new ApiError(
        0,
        'no_api_key',
        `The admin token given is too weak: ${problem}. ${ADMIN_TOKEN_HOWTO}`,
      )
    return o.flag
  }
  if (!isLoopbackUrl(o.apiUrl)) {
    throw new ApiError(
      0,
      'no_api_key',
      `No admin token for ${o.apiUrl}: pass --admin-token or set SITEHEALTH_ADMIN_TOKEN (the local token file is only used for a server on this machine).`,
    )
  }
  const file = join(o.dataDir, ADMIN_TOKEN_FILE)
  const mismatch = ownerMismatch(await readOwnerFile(o.dataDir), o.apiUrl)
  if (mismatch)
    throw new ApiError(
      0,
      'no_api_key',
      `Not sending the admin token file of ${o.dataDir} to ${o.apiUrl}: ${mismatch}. Pass --admin-token (or SITEHEALTH_ADMIN_TOKEN), or point --api-url/--data-dir at the running server and its data dir.`,
    )
  let token: string
  try {
    token = (await readFile(file, 'utf8')).trim()
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : (err as Error).message
    throw new ApiError(
      0,
      'no_api_key',
      `No admin token: pass --admin-token, set SITEHEALTH_ADMIN_TOKEN, or point --data-dir at the data dir of the local \`sitehealth serve\` (${file} ${why}).`,
    )
  }
  if (!token)
    throw new ApiError(0, 'no_api_key', `The admin token file ${file} is empty: pass --admin-token.`)
  return token
}
