/**
 * The signal registry. Adding a sixth signal = one module, one line here, one weight in
 * thresholds.ts (and its name in the contract's SIGNAL_NAMES).
 */
import type { SignalName } from '../../contract/schemas.js'
import type { SignalFn } from './format.js'
import { httpsSsl } from './https-ssl.js'
import { pagespeed } from './pagespeed.js'
import { reachability } from './reachability.js'
import { responseTime } from './response-time.js'
import { securityHeaders } from './security-headers.js'

export type { SignalFn }

export const SIGNALS: Record<SignalName, SignalFn> = {
  reachability,
  https_ssl: httpsSsl,
  response_time: responseTime,
  security_headers: securityHeaders,
  pagespeed,
}
