import { readPage } from '../../../../src/checks/page/index.js'
import { securityHeaders } from '../../../../src/checks/signals/security-headers.js'
import type { ProbeResult, Signal } from '../../../../src/checks/types.js'
import { healthyProbe, NOW, type Overrides } from '../../probe-builder.js'

/** The healthy https site with some headers changed (a string), repeated (an array) or removed (undefined). */
export function probeWith(
  headers: Record<string, string | string[] | undefined>,
  opts: { html?: string; finalUrl?: string; overrides?: Overrides<ProbeResult> } = {},
): ProbeResult {
  const joined: Record<string, string | undefined> = {}
  const repeated: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) {
      joined[name] = value.join(', ')
      repeated[name] = value
    } else joined[name] = value
  }
  const finalUrl = opts.finalUrl ?? 'https://example.com/'
  const probe = healthyProbe({
    inputUrl: finalUrl,
    finalUrl,
    ...opts.overrides,
    response: {
      ...opts.overrides?.response,
      headers: { ...opts.overrides?.response?.headers, ...joined },
      repeatedHeaders: repeated,
    },
  })
  probe.page = opts.html === undefined ? null : readPage(opts.html, finalUrl)
  return probe
}

export const judgeWith = (...args: Parameters<typeof probeWith>): Signal =>
  securityHeaders(probeWith(...args), NOW)

export const without = (...names: string[]) => Object.fromEntries(names.map((n) => [n, undefined]))

export const messages = (s: Signal) => s.findings.map((f) => f.message)
