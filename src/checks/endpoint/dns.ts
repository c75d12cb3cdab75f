/**
 * A dns monitor's run: one query of a record type for a name, to the system resolver or a given
 * one, through `node:dns`'s `Resolver` (c-ares, part of Node: retries, the system's resolv.conf,
 * TCP when an answer is truncated, every record type a monitor asks; a DNS client written on
 * dns-packet would redo all of that, so dns-packet only plays the server in the tests). Answers
 * come back as strings in zone-file order of fields, sorted. NXDOMAIN, SERVFAIL, a refusal and
 * silence past the timeout are CheckErrors with the reason; NOERROR without records is an empty
 * answer, for the monitor's assertions to judge.
 */
import { promises as dns } from 'node:dns'
import { performance } from 'node:perf_hooks'
import { resolverText, type DnsRecordType, type ResolverAddress } from '../../contract/dns.js'
import { checkFailed, invalidUrl } from '../errors.js'
import { blockedAddressReason } from '../ip.js'

export interface DnsQuery {
  host: string
  type: DnsRecordType
  /** Absent: the system's resolvers. */
  resolver?: ResolverAddress
  timeoutMs: number
  /** Private and local addresses in an A or AAAA answer are shown (else the run fails as blocked). */
  allowPrivateTargets?: boolean
}

export interface DnsResult {
  /** The records, each as a string (`10 mail.example.com` for MX), sorted. */
  answers: string[]
  /** How long the query took. */
  ms: number
}

const quote = (s: string) => JSON.stringify(s)

/** Each record type's query, its answer written as one string per record. */
const QUERIES: Record<DnsRecordType, (r: dns.Resolver, host: string) => Promise<string[]>> = {
  A: (r, h) => r.resolve4(h),
  AAAA: (r, h) => r.resolve6(h),
  CNAME: (r, h) => r.resolveCname(h),
  NS: (r, h) => r.resolveNs(h),
  MX: async (r, h) => (await r.resolveMx(h)).map((m) => `${m.priority} ${m.exchange}`),
  TXT: async (r, h) => (await r.resolveTxt(h)).map((chunks) => chunks.join('')),
  SRV: async (r, h) => (await r.resolveSrv(h)).map((s) => `${s.priority} ${s.weight} ${s.port} ${s.name}`),
  SOA: async (r, h) => {
    const s = await r.resolveSoa(h)
    return [`${s.nsname} ${s.hostmaster} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minttl}`]
  },
  CAA: async (r, h) =>
    (await r.resolveCaa(h)).map((c) => {
      const { critical, ...rest } = c as { critical: number } & Record<string, string>
      const [tag, value] = Object.entries(rest)[0] ?? ['issue', '']
      return `${critical} ${tag} ${quote(value)}`
    }),
}

/** The reason a query failed, in words a user reads. */
function reason(code: string | undefined, q: DnsQuery, server: string): string {
  switch (code) {
    case 'ENOTFOUND':
      return `NXDOMAIN: ${q.host} does not exist (${server})`
    case 'ESERVFAIL':
      return `SERVFAIL: ${server} could not answer for ${q.host} ${q.type}`
    case 'EREFUSED':
      return `REFUSED: ${server} refused the query for ${q.host} ${q.type}`
    case 'ETIMEOUT':
      return `No answer from ${server} within ${q.timeoutMs / 1000} s (timeout)`
    case 'ECONNREFUSED':
      return `${server} refused the connection`
    case 'EFORMERR':
    case 'EBADRESP':
    case 'EBADNAME':
      return `${server} gave a malformed answer for ${q.host} ${q.type} (${code})`
    default:
      return `The query for ${q.host} ${q.type} failed at ${server} (${code ?? 'unknown error'})`
  }
}

/** The query's answers, sorted; throws CheckError `check_failed` with the reason. */
export async function queryDns(q: DnsQuery): Promise<DnsResult> {
  // one try per server, each given the whole budget; the deadline below bounds the sum
  const resolver = new dns.Resolver({ timeout: q.timeoutMs, tries: 1 })
  if (q.resolver) resolver.setServers([resolverText(q.resolver)])
  const server = q.resolver ? `the resolver ${resolverText(q.resolver)}` : 'the system resolver'
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('deadline'), { code: 'ETIMEOUT' })), q.timeoutMs)
  })
  let answers: string[]
  try {
    answers = await Promise.race([QUERIES[q.type](resolver, q.host), deadline])
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENODATA') answers = []
    else throw checkFailed(reason(code, q, server))
  } finally {
    clearTimeout(timer)
    resolver.cancel()
  }
  const ms = performance.now() - started
  if (!q.allowPrivateTargets && (q.type === 'A' || q.type === 'AAAA')) {
    const blocked = answers.find((a) => blockedAddressReason(a) !== null)
    // as the URL guard does: the caller is not told which private address the name has
    if (blocked)
      throw invalidUrl(
        `Blocked for safety: ${q.host} resolves to a private or local address`,
        `${q.host} ${q.type} answered ${blocked}`,
      )
  }
  return { answers: [...answers].sort(), ms }
}
