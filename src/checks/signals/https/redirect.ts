/** Does plain http send visitors to https (the alternate-scheme probe's answer)? */
import { HTTPS } from '../../thresholds.js'
import type { ProbeResult } from '../../types.js'
import { clip, shortUrl } from '../format.js'
import { type Judgement, warn } from './judgement.js'

export function redirectJudgements(probe: ProbeResult, host: string): Judgement[] {
  if (new URL(probe.inputUrl).protocol === 'http:') {
    return [
      {
        cap: HTTPS.scores.ok,
        finding: { severity: 'info', message: `${probe.inputUrl} redirects to https` },
      },
    ]
  }
  const alt = probe.alternate
  if (!alt || alt.kind !== 'http_to_https' || !alt.attempted) return []
  if (alt.ok)
    return [{ cap: HTTPS.scores.ok, finding: { severity: 'info', message: `${alt.url} redirects to https` } }]
  if (alt.status === undefined) {
    // Observatory passes a closed port 80: there is no plain-http page to leave visitors on
    return [
      {
        cap: HTTPS.scores.ok,
        finding: {
          severity: 'info',
          message: `Plain http on ${host} does not answer (${alt.error ? clip(alt.error, 120) : 'no answer'})`,
        },
      },
    ]
  }
  const answer = alt.location
    ? `it redirects to ${shortUrl(locationHref(alt.location, alt.url))}`
    : `it answers ${alt.status}`
  return [warn(`${alt.url} does not redirect to https (${answer}); add a permanent (301) redirect to https`)]
}

/** A Location as an absolute URL when it resolves, else as written (shortUrl then excerpts it). */
function locationHref(location: string, base: string): string {
  try {
    return new URL(location, base).href
  } catch {
    return location
  }
}
