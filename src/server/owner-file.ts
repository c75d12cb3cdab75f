/**
 * `<data-dir>/serve.json`: which process serves this data dir, and where. `serve` writes it once it
 * listens and removes it when it stops. Admin commands read it before they send the data dir's
 * token file, so the token only ever goes to the live `serve` that owns it: a listener squatting
 * the port while `serve` is down (or a `serve` of another data dir) never receives it.
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export const OWNER_FILE = 'serve.json'

export interface OwnerRecord {
  pid: number
  /** The address `serve` bound, as given to --host. */
  host: string
  port: number
  started_at: string
}

export async function writeOwnerFile(dataDir: string, record: OwnerRecord): Promise<string> {
  const file = join(dataDir, OWNER_FILE)
  await writeFile(file, JSON.stringify(record) + '\n', { mode: 0o600 })
  return file
}

/** Removes the file if it is still ours (a newer owner's file is left alone). */
export async function removeOwnerFile(dataDir: string, pid = process.pid): Promise<void> {
  const record = await readOwnerFile(dataDir)
  if (record?.pid === pid) await rm(join(dataDir, OWNER_FILE), { force: true })
}

export async function readOwnerFile(dataDir: string): Promise<OwnerRecord | undefined> {
  try {
    const r = JSON.parse(await readFile(join(dataDir, OWNER_FILE), 'utf8')) as Partial<OwnerRecord>
    if (Number.isInteger(r.pid) && Number.isInteger(r.port) && typeof r.host === 'string')
      return r as OwnerRecord
  } catch {
    // missing or unreadable: nobody known owns the data dir
  }
  return undefined
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]', ''])
const bare = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, '')

/**
 * Why `apiUrl` is not the live owner's address, or undefined when it is: the owner's process is
 * alive, the port is the one it listens on, and the host is the one it bound (any loopback host
 * when it bound every address).
 */
export function ownerMismatch(record: OwnerRecord | undefined, apiUrl: string): string | undefined {
  if (!record) return 'no running `sitehealth serve` has recorded itself in that data dir'
  if (!isAlive(record.pid))
    return `the \`sitehealth serve\` (pid ${record.pid}) recorded there is not running`
  let url: URL
  try {
    url = new URL(apiUrl)
  } catch {
    return `${apiUrl} is not a URL`
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  if (port !== record.port)
    return `that data dir's \`sitehealth serve\` listens on port ${record.port}, not ${port}`
  if (!WILDCARD.has(bare(record.host)) && bare(record.host) !== bare(url.hostname))
    return `that data dir's \`sitehealth serve\` listens on ${record.host}, not ${url.hostname}`
  return undefined
}
