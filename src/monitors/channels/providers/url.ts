/** What the URL-taking providers share: the SSRF guard at create, and the masked form. */
import { CheckError, assertTargetAllowed, parseTargetUrl } from '../../../checks/index.js'
import { ChannelFieldError, type CheckContext } from './provider.js'

/** Refuses a URL that is not http(s) or that the SSRF guard refuses (unless allowed). */
export function checkUrl(type: string, field: string, value: string, ctx: CheckContext): void {
  try {
    assertTargetAllowed(parseTargetUrl(value), { allowPrivateTargets: ctx.allowPrivateTargets })
  } catch (err) {
    if (err instanceof CheckError) throw new ChannelFieldError(field, `Invalid ${type} URL`, err.message)
    throw err
  }
}

/** `https://hooks.slack.com/…XXXX`: the origin and the last 4 characters of the path. */
export function maskUrl(target: string): string {
  try {
    const u = new URL(target)
    const rest = `${u.pathname}${u.search}`
    return rest.length > 1 ? `${u.origin}/…${rest.slice(-4)}` : u.origin
  } catch {
    return '…'
  }
}
