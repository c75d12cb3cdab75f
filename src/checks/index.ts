export { runCheck } from './engine.js'
export { probe, PROBE_DEFAULTS, type ProbeOptions } from './probe.js'
export { CheckError, asSentence, checkFailed, invalidUrl, type CheckErrorCode } from './errors.js'
export { assertTargetAllowed, parseTargetUrl, createGuardedLookup, isBlockedLookupError } from './guard.js'
export { DOCS_URL, defaultUserAgent } from './user-agent.js'
export { blockedAddressReason } from './ip.js'
export type * from './types.js'
export { queryDns, type DnsQuery, type DnsResult } from './endpoint/dns.js'
export {
  parsePing,
  pingAvailability,
  probePing,
  type PingAvailability,
  type PingQuery,
  type PingResult,
} from './endpoint/ping.js'
export {
  probeTcp,
  probeTls,
  endpointUrl,
  type EndpointOptions,
  type TlsEndpointOptions,
  type TcpResult,
  type TlsResult,
} from './endpoint/index.js'
