import type { RiskLevel, SignalName, SignalStatus } from '../contract/schemas.js'

export type { RiskLevel, SignalName, SignalStatus }

export interface CheckOptions {
  /** Lift the private/loopback block (intranet self-hosting, tests). Default false. */
  allowPrivateTargets?: boolean
  /** Extra trusted CA certificates (PEM), added to Node's default store, for chain verification. */
  extraCA?: string | string[]
  /** Connect timeout per connection, ms (default 5000). */
  connectTimeoutMs?: number
  /** Budget for the whole check, ms (default 15000). */
  totalTimeoutMs?: number
  /** Cap on decoded body bytes read (default 4 MiB). */
  maxBodyBytes?: number
  /** Outbound User-Agent (default `sitehealth/<version> (+<docs url>)`). */
  userAgent?: string
  /** Abort the check (server shutdown). */
  signal?: AbortSignal
}

/** One finding inside a signal, with a severity from which summary and risk are derived. */
export interface Finding {
  severity: 'info' | 'low' | 'medium' | 'high'
  message: string
}

export interface Signal {
  status: SignalStatus
  /** One specific, actionable sentence. */
  message: string
  /** 0-100 sub-score; null when unavailable. */
  score: number | null
  findings: Finding[]
  /** What was measured, JSON-serialisable. */
  details: Record<string, unknown>
}

export type Signals = Record<SignalName, Signal>

/** The engine's full result. The server maps it to the wire shapes. */
export interface CheckReport {
  /** The URL as checked (normalised by WHATWG URL). */
  url: string
  finalUrl: string
  healthScore: number
  status: SignalStatus
  riskLevel: RiskLevel
  summary: string
  signals: Signals
  /** Time to first byte of the final response, ms (DNS, connect, TLS and redirects included). */
  responseTimeMs: number
  /** Missing security headers, lowercase, stable order. */
  missingHeaders: string[]
  /** 0-100; 0 when pagespeed is unavailable. */
  performanceScore: number
  startedAt: string
  durationMs: number
}

// ---------------------------------------------------------------------------------------------
// The probe's output: everything the signals judge. The probe is the only code that touches the
// network; each signal is a pure function of this (Lighthouse's gather/audit split).

export interface CertificateInfo {
  /** Subject common name (or the whole subject when there is no CN). */
  subject: string
  /** Issuer common name / organisation. */
  issuer: string
  subjectAltNames: string[]
  /** ISO timestamps. */
  validFrom: string
  validTo: string
  selfSigned: boolean
  fingerprint256: string
}

export interface TlsInfo {
  /** Negotiated protocol, e.g. 'TLSv1.3'. */
  protocol: string | null
  /** Chain verified by Node against its default store (plus the engine's extra CAs). */
  authorized: boolean
  /** Node's code when not authorized, e.g. CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID. */
  authorizationError: string | null
  /** tls.checkServerIdentity passed for the hostname, judged independently of the chain. */
  hostnameMatches: boolean
  /** Leaf certificate; null when the peer certificate could not be read. */
  certificate: CertificateInfo | null
  alpnProtocol: string | null
}

export interface RedirectHop {
  url: string
  status: number
  location: string
}

export interface ProbeTimings {
  /** Of the first connection of the final hop; null when no lookup happened (IP literal, reused socket). */
  dnsMs: number | null
  connectMs: number | null
  tlsMs: number | null
  /** Request sent -> response headers of the final hop (server think time). */
  serverWaitMs: number
  /** Check start -> first byte of the final response, DNS, connect, TLS and redirects included (web-vitals TTFB). */
  ttfbMs: number
  /** Check start -> last body byte read (or the cap). */
  totalMs: number
}

export interface ProbeResponse {
  status: number
  /** '1.1' or '2'. */
  httpVersion: string
  /** Lowercase names; repeated headers joined with ', ' (set-cookie kept as a list in setCookies). */
  headers: Record<string, string>
  setCookies: string[]
  contentType: string | null
  contentEncoding: string | null
  /** Bytes received on the wire for the body (compressed size). */
  bodyBytesWire: number
  /** Decoded body bytes counted (stops at the cap). */
  bodyBytesDecoded: number
  bodyTruncated: boolean
}

/** The companion request: for an https target, does plain http redirect to https; for http, is https offered. */
export interface AlternateProbe {
  kind: 'http_to_https' | 'https_offered'
  url: string
  /** False when skipped (non-default port: the other scheme's port is unknown). */
  attempted: boolean
  /** http_to_https: the http URL redirects (eventually, first hop) to an https URL. https_offered: https answered. */
  ok: boolean
  status?: number
  location?: string
  error?: string
  tls?: TlsInfo
}

export interface ProbeResult {
  inputUrl: string
  finalUrl: string
  response: ProbeResponse
  /** Hops followed, in order (at most 5). */
  redirects: RedirectHop[]
  /** True when the chain went on past the cap: `response` is then the last 3xx seen. */
  redirectLimitExceeded: boolean
  timings: ProbeTimings
  /** TLS of the final hop when it is https, else null. */
  tls: TlsInfo | null
  alternate: AlternateProbe | null
  /** When the check ran (certificate days-left are computed against this). */
  startedAt: string
}
