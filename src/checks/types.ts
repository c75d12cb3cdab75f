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
