/**
 * A ping monitor's run through the system's `ping` (iputils, as Uptime Kuma does): the host past
 * the SSRF guard (a blocked literal refused; a name resolved once by the guarded lookup, which
 * refuses the whole answer if any address is blocked), then `ping` of the address it allowed, run
 * with a fixed argument list and never a shell (execa). Its summary gives the packets sent and
 * received and the average round trip. Whether this server may ping at all is asked once, at
 * serve start (`pingAvailability`): where `ping` is missing or not permitted, ping monitors are
 * refused at create with the reason instead of going down on every run.
 */
import { execa } from 'execa'
import { isIP } from 'node:net'
import { checkFailed, invalidUrl } from '../errors.js'
import { createGuardedLookup, isBlockedLookupError } from '../guard.js'
import { blockedAddressReason } from '../ip.js'

export interface PingQuery {
  host: string
  /** Echo requests to send (1 to 20). */
  count: number
  timeoutMs: number
  allowPrivateTargets?: boolean
  /** Replaces DNS (tests). */
  resolver?: Parameters<typeof createGuardedLookup>[0]['resolver']
  /** Replaces the `ping` command (tests). */
  command?: string
}

export interface PingSummary {
  transmitted: number
  received: number
  /** Percent of the echo requests that got no reply, 0 to 100. */
  packetLoss: number
  /** The average round trip, ms; null when no reply came. */
  avgMs: number | null
}

export interface PingResult extends PingSummary {
  /** The address pinged. */
  address: string
}

export type PingAvailability = { ok: true } | { ok: false; reason: string }

const PING = 'ping'
// the C locale: the summary is parsed, and its words must not be translated
const ENV = { LC_ALL: 'C', LANG: 'C' }

/**
 * The summary of iputils' (and BusyBox's) output: "3 packets transmitted, 2 received, 33% packet
 * loss" and "rtt min/avg/max/mdev = 0.03/0.04/0.05/0.01 ms"; null when there is none.
 */
export function parsePing(output: string): PingSummary | null {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(output)
  if (!counts) return null
  const transmitted = Number(counts[1])
  const received = Number(counts[2])
  const lossText = /([\d.]+)% packet loss/.exec(output)?.[1]
  const packetLoss =
    lossText !== undefined
      ? Number(lossText)
      : transmitted > 0
        ? Math.round(((transmitted - received) / transmitted) * 100)
        : 100
  const avg = /(?:rtt|round-trip) min\/avg\/max(?:\/\w+)? = [\d.]+\/([\d.]+)\//.exec(output)?.[1]
  return {
    transmitted,
    received,
    packetLoss: Math.min(100, Math.max(0, packetLoss)),
    avgMs: received > 0 && avg !== undefined ? Number(avg) : null,
  }
}

/** The first line of what a command said, for a reason. */
const firstLine = (text: string) => text.trim().split('\n')[0]?.trim() ?? ''

/**
 * Can this server ping? One echo to 127.0.0.1, asked once at serve start: missing (`ENOENT`), not
 * permitted (no raw or ICMP socket for this user), or working.
 */
export async function pingAvailability(command = PING): Promise<PingAvailability> {
  const r = await execa(command, ['-n', '-c', '1', '-W', '2', '127.0.0.1'], {
    reject: false,
    timeout: 5000,
    env: ENV,
  })
  if (r.exitCode === 0) return { ok: true }
  if ((r as { code?: string }).code === 'ENOENT' || /ENOENT/.test(r.message ?? ''))
    return { ok: false, reason: 'the `ping` command is not installed on this server (iputils-ping)' }
  const said = firstLine(r.stderr || r.stdout || r.message || '')
  if (/not permitted|permission denied|socket/i.test(said))
    return { ok: false, reason: `this server may not send pings (${said})` }
  return { ok: false, reason: `\`ping\` does not work on this server (${said || `exit ${r.exitCode}`})` }
}

/** The address to ping: a literal past the guard, or the first of a name's guarded answers. */
async function addressOf(q: PingQuery): Promise<{ address: string; family: 4 | 6 }> {
  const family = isIP(q.host)
  if (family !== 0) {
    const reason = q.allowPrivateTargets ? null : blockedAddressReason(q.host)
    if (reason) throw invalidUrl(`Blocked for safety: ${q.host} is ${reason}`)
    return { address: q.host, family: family === 6 ? 6 : 4 }
  }
  const lookup = createGuardedLookup({ allowPrivateTargets: q.allowPrivateTargets, resolver: q.resolver })
  return new Promise((resolve, reject) => {
    lookup(q.host, { all: true }, (err, answers) => {
      if (err) {
        if (isBlockedLookupError(err))
          return reject(
            invalidUrl((err as { publicMessage?: string }).publicMessage ?? err.message, err.message),
          )
        return reject(
          checkFailed(
            `DNS: ${q.host} could not be resolved (${(err as { code?: string }).code ?? err.message})`,
          ),
        )
      }
      const first = (answers as unknown as { address: string; family: number }[])[0]
      if (!first) return reject(checkFailed(`DNS: ${q.host} has no address`))
      resolve({ address: first.address, family: first.family === 6 ? 6 : 4 })
    })
  })
}

/** Pings the host; throws CheckError when it cannot be pinged at all (a reply or none is a result). */
export async function probePing(q: PingQuery): Promise<PingResult> {
  const { address, family } = await addressOf(q)
  const seconds = Math.max(1, Math.ceil(q.timeoutMs / 1000))
  // -w: the whole run's deadline; -W: how long the last request waits for its reply
  const args = [
    `-${family}`,
    '-n',
    '-c',
    String(q.count),
    '-w',
    String(seconds),
    '-W',
    String(seconds),
    address,
  ]
  const r = await execa(q.command ?? PING, args, { reject: false, timeout: q.timeoutMs + 2000, env: ENV })
  const summary = parsePing(r.stdout ?? '')
  if (!summary) {
    if ((r as { code?: string }).code === 'ENOENT')
      throw checkFailed('The `ping` command is not installed on this server')
    throw checkFailed(
      `ping ${q.host} failed: ${firstLine(r.stderr || r.message || '') || `exit ${r.exitCode}`}`,
    )
  }
  return { address, ...summary }
}
