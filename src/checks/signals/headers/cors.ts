/**
 * CORS, from the probe's preflight-style request with a made-up Origin (Fetch standard, CORS
 * protocol; graded as the MDN HTTP Observatory's CORS test): a server that answers with that very
 * Origin in Access-Control-Allow-Origin and `Access-Control-Allow-Credentials: true` lets any site
 * read its responses with the visitor's cookies. `*` is public access, which browsers never
 * combine with credentials, so it passes.
 */
import { SECURITY_HEADERS } from '../../thresholds.js'
import type { CorsProbe } from '../../types.js'
import type { Grade } from './grade.js'

const M = SECURITY_HEADERS.modifiers

export interface CorsResult {
  checked: boolean
  status: number | null
  access: 'none' | 'public' | 'restricted' | 'reflects-any-origin' | 'unknown'
  credentials: boolean
}

export function judgeCors(cors: CorsProbe | null | undefined, g: Grade): CorsResult | null {
  if (!cors) return null
  if (!cors.answered) return { checked: false, status: null, access: 'unknown', credentials: false }
  const allow = cors.allowOrigin?.trim() ?? null
  const credentials = cors.allowCredentials?.trim().toLowerCase() === 'true'
  const result: CorsResult = { checked: true, status: cors.status ?? null, access: 'none', credentials }
  if (allow === null || allow === '') return result
  if (allow === '*') return { ...result, access: 'public' }
  if (allow.toLowerCase() === cors.origin.toLowerCase() && credentials) {
    g.note(
      'high',
      "CORS reflects any Origin with Access-Control-Allow-Credentials: true, so any website can read these pages with the visitor's cookies; allow only a fixed list of trusted origins",
      M.corsUniversal,
    )
    return { ...result, access: 'reflects-any-origin' }
  }
  // an echoed Origin without credentials exposes only what any anonymous request can read
  return { ...result, access: allow.toLowerCase() === cors.origin.toLowerCase() ? 'public' : 'restricted' }
}
