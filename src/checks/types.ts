import type { RiskLevel, SignalName, SignalStatus } from '../contract/schemas.js'
import type { LabOutcome, LabRunner } from './lab-outcome.js'
import type { PageInfo } from './page/types.js'
import type { CriticalResources } from './perf/types.js'

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
  /** Measure performance in the lab browser (src/lab/) when the page is an HTML page; else the estimate only. */
  lab?: LabRunner
  /** The account the check is for: the lab shares its browsers fairly between accounts. */
  labOwner?: string
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
  /**
   * The final answer as fetched, for a monitor's assertions (docs/decisions.md#monitoring-depth):
   * never saved with the check. Absent from reports made without a probe (tests).
   */
  answer?: CheckAnswer
}

export interface CheckAnswer {
  status: number
  /** Lowercase names. */
  headers: Record<string, string>
  /** The decoded body as the probe kept it (up to its cap); null for binaries or no body. */
  body: string | null
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
  /** The leaf carries a subjectAltName extension (without one, browsers ignore the Common Name: RFC 6125). */
  hasSubjectAltName: boolean
  /** Public key algorithm ('rsa', 'ec', 'ed25519', 'dsa', 'rsa-pss'…) and size in bits; null when unreadable. */
  keyType: string | null
  keyBits: number | null
  /** Signature algorithm of the leaf, e.g. 'sha256WithRSAEncryption' (or its OID when unnamed), and its hash ('SHA-1', 'SHA-256'…). */
  signatureAlgorithm: string | null
  signatureHash: string | null
  /** RFC 7633 TLS feature extension with status_request: the certificate demands a stapled OCSP response. */
  mustStaple: boolean
  /** The leaf's issuer was neither sent by the server nor found in the trust store (typically a missing intermediate). */
  issuerMissing: boolean
}

/** How the session keys were agreed: ephemeral (forward secret), static RSA (none), or without authentication. */
export type KeyExchange = 'ECDHE' | 'DHE' | 'RSA' | 'anonymous' | 'other'

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
  /** Negotiated cipher suite (IANA name when known, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256). */
  cipher: string | null
  keyExchange: KeyExchange | null
  /** The ephemeral key of the exchange, e.g. { type: 'ECDH', name: 'X25519', bits: 253 } or { type: 'DH', name: null, bits: 1024 }. */
  ephemeralKey: { type: string; name: string | null; bits: number } | null
  /** A stapled OCSP response came with the handshake; null when none was asked for. */
  ocspStapled: boolean | null
  /** The modern handshake (TLS ≥ 1.2) was refused for the protocol version, and this connection allowed legacy protocols. */
  legacyFallback: boolean
}

/** One extra handshake of the TLS scan (src/checks/tls/scan.ts). */
export interface HandshakeAttempt {
  kind: 'TLSv1' | 'TLSv1.1' | 'NULL' | 'anonymous'
  /** accepted: the handshake completed; refused: the server declined it; unknown: no verdict (timeout, network). */
  outcome: 'accepted' | 'refused' | 'unknown'
  /** What was negotiated when accepted. */
  protocol?: string
  cipher?: string
  /** Why, when refused or unknown. */
  error?: string
  ms: number
}

/** Extra guarded handshakes beside the main request: does the server also accept legacy protocols or NULL/anonymous suites? */
export interface TlsScan {
  /** `https://host:port` scanned (see originKey). */
  origin: string
  attempts: HandshakeAttempt[]
  /** Wall time of the whole scan, ms. */
  ms: number
}

export interface RedirectHop {
  url: string
  status: number
  location: string
  /** Set-Cookie lines of this hop (cookies set on a redirect count as much as the page's). */
  setCookies?: string[]
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
  /**
   * Headers sent on more than one line, each line's value in order (lowercase names): browsers
   * treat some repeated headers line by line (RFC 6797 takes the first HSTS line), which the joined
   * value in `headers` cannot tell from one line holding a comma.
   */
  repeatedHeaders?: Record<string, string[]>
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

/**
 * The preflight-style request (Observatory's CORS test): OPTIONS to the final URL with a made-up
 * Origin. A server that echoes any Origin and allows credentials lets every site read its pages
 * with the visitor's cookies.
 */
export interface CorsProbe {
  url: string
  /** The made-up Origin sent. */
  origin: string
  /** False when it could not be sent (the check ended first, or it failed). */
  answered: boolean
  status?: number
  /** First Access-Control-Allow-Origin / -Allow-Credentials lines as received (null when absent). */
  allowOrigin?: string | null
  allowCredentials?: string | null
  error?: string
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
  /** The TLS scan of the https origin (the URL's, or the companion's for an http URL); absent when none ran. */
  tlsScan?: TlsScan | null
  /** When the check ran (certificate days-left are computed against this). */
  startedAt: string
  /** The final response's body as text (HTML, JSON, other text), decoded, up to the HTML cap; null for binaries or no body. */
  bodyText?: string | null
  /** The final response's HTML document, read up to a cap; null when it is not HTML (or has no body). */
  page: PageInfo | null
  /** The CORS preflight-style request beside the final response; null/absent when not made. */
  cors?: CorsProbe | null
  /** The page's critical subresources, fetched for the performance estimate (src/checks/perf/); null when not a 2xx HTML page. */
  critical: CriticalResources | null
  /** The lab run of the page (Lighthouse in Chromium) when one was asked for; absent otherwise. */
  lab?: LabOutcome
}
