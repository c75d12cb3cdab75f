/**
 * Content-Security-Policy as browsers enforce it (CSP Level 3), graded with Observatory's modifiers.
 *
 * - Every policy is enforced: each header line, each comma-separated policy in a line (CSP3 §2.2:
 *   a comma ends a policy), and each `<meta http-equiv="Content-Security-Policy">` in the head. A
 *   load happens only when every policy allows it, so the combined policy has a weakness only when
 *   every policy has it: `script-src *` beside `script-src 'self'` is not "any source".
 * - A meta policy is enforced except `frame-ancestors`, `report-uri` and `sandbox` (CSP3 §6.x,
 *   HTML "Content security policy state"); it cannot replace the header against framing.
 * - Within a policy the first occurrence of a directive wins (CSP3 "parse a serialized CSP").
 * - A nonce or hash makes browsers ignore 'unsafe-inline'; 'strict-dynamic' makes them ignore host
 *   and scheme sources, 'self' and 'unsafe-inline' (CSP3 §8.2, §8.3).
 */
import { SECURITY_HEADERS } from '../../thresholds.js'
import type { PageInfo } from '../../page/types.js'
import type { ProbeResponse } from '../../types.js'
import { excerpt } from '../format.js'
import { headerLines, type Grade } from './grade.js'

const M = SECURITY_HEADERS.modifiers

type Directives = Map<string, string[]>

interface Policy {
  from: 'header' | 'meta'
  directives: Directives
}

/** Sources that allow any host (Observatory DANGEROUSLY_BROAD). */
const BROAD_SOURCES = new Set([
  '*',
  'http:',
  'https:',
  'ftp:',
  'http://*',
  'https://*',
  'ftp://*',
  'http://*.*',
  'https://*.*',
])

/** Directives a `<meta>` policy cannot carry (CSP3; HTML's http-equiv processing drops them). */
const HEADER_ONLY = ['frame-ancestors', 'report-uri', 'sandbox']

/** CSP Level 3 directive names: a policy with none of them restricts nothing. */
const KNOWN_DIRECTIVES = new Set([
  'child-src',
  'connect-src',
  'default-src',
  'fenced-frame-src',
  'font-src',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'object-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'worker-src',
  'base-uri',
  'sandbox',
  'form-action',
  'frame-ancestors',
  'navigate-to',
  'report-uri',
  'report-to',
  'require-trusted-types-for',
  'trusted-types',
  'upgrade-insecure-requests',
  'block-all-mixed-content',
])

export interface CspResult {
  /** A header policy carries frame-ancestors, so browsers ignore X-Frame-Options (HTML XFO processing). */
  frameAncestors: boolean
  /** That frame-ancestors actually restricts framing (no `*` or scheme-wide source). */
  frameAncestorsProtects: boolean
  details: { sources: Array<'header' | 'meta'>; policies: number }
}

export function judgeCsp(
  response: ProbeResponse,
  page: PageInfo | null,
  https: boolean,
  g: Grade,
): CspResult {
  const headerPolicies = headerLines(response, 'content-security-policy')
    .flatMap((line) => line.split(','))
    .map((text) => ({ from: 'header' as const, directives: parsePolicy(text) }))
  const metaPolicies = (page?.httpEquiv ?? [])
    .filter((m) => m.name === 'content-security-policy')
    .map((m) => {
      const directives = parsePolicy(m.content)
      for (const name of HEADER_ONLY) directives.delete(name)
      return { from: 'meta' as const, directives }
    })
  const policies: Policy[] = [...headerPolicies, ...metaPolicies].filter((p) => p.directives.size > 0)
  const frame = headerPolicies.map((p) => p.directives.get('frame-ancestors')).filter((v) => v !== undefined)
  const result: CspResult = {
    frameAncestors: frame.length > 0,
    frameAncestorsProtects: frame.some((sources) => !sources.some((s) => BROAD_SOURCES.has(s))),
    details: { sources: [...new Set(policies.map((p) => p.from))], policies: policies.length },
  }

  const effective = policies.filter((p) => [...p.directives.keys()].some((d) => KNOWN_DIRECTIVES.has(d)))
  if (effective.length === 0) {
    const reportOnly = headerLines(response, 'content-security-policy-report-only').length > 0
    if (policies.length > 0) {
      g.ignore(
        'content-security-policy',
        'no directive browsers know',
        M.cspMissing,
        `Content-Security-Policy is set but has no directive browsers know, so it restricts nothing; start from "default-src 'self'"`,
      )
      return result
    }
    g.lack('content-security-policy', reportOnly ? M.cspReportOnly : M.cspMissing)
    if (reportOnly) {
      g.note(
        'low',
        'Only Content-Security-Policy-Report-Only is set: it reports violations but blocks nothing; enforce it as Content-Security-Policy once the reports are clean',
      )
    }
    return result
  }

  const problems = combinedProblems(
    effective.map((p) => p.directives),
    https,
  )
  for (const p of problems) {
    if (p.weak === false) {
      g.note('low', `Content-Security-Policy is weak: ${p.problem}`)
      continue
    }
    g.weaken(
      'content-security-policy',
      p.problem,
      0,
      p.points <= M.cspUnsafeInline ? 'medium' : 'low',
      `Content-Security-Policy is weak: ${p.problem}`,
    )
  }
  if (problems.length > 0) g.add(Math.min(...problems.map((p) => p.points)))
  else {
    const defaultNone = effective.some((p) => p.directives.get('default-src')?.join(' ') === "'none'")
    g.add(defaultNone ? M.cspDefaultNone : M.cspNoUnsafe)
  }
  return result
}

/** CSP3 "parse a serialized CSP": `;`-separated directives, names lowercased, the first of a name wins. */
export function parsePolicy(text: string): Directives {
  const directives: Directives = new Map()
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/[\t\n\f\r ]+/)
    const key = name?.toLowerCase()
    if (key && !directives.has(key))
      directives.set(
        key,
        sources.filter(Boolean).map((s) => s.toLowerCase()),
      )
  }
  return directives
}

interface Problem {
  problem: string
  points: number
  /** A weak value (capped below ok); false for the passive-content finding, Observatory's mildest CSP result. */
  weak?: boolean
}

/** Passive and font loads (Observatory: img-src, media-src; fonts are blocked as mixed content, so a policy allowing them over http is as wrong). */
const PASSIVE = ['img-src', 'media-src', 'font-src'] as const

/** An http: or ftp: source (scheme or host) for images, media or fonts; the directive falls back to default-src. */
function insecurePassive(d: Directives, https: boolean): string[] {
  if (!https) return []
  return PASSIVE.filter((name) =>
    (d.get(name) ?? d.get('default-src') ?? []).some((s) => /^(http|ftp):(\/\/|$)/.test(s)),
  )
}

/** What one policy lets through, for the checks below. */
function allowances(d: Directives, https: boolean) {
  const scriptName = d.has('script-src') ? 'script-src' : 'default-src'
  const script = d.get('script-src') ?? d.get('default-src')
  const objectName = d.has('object-src') ? 'object-src' : 'default-src'
  const object = d.get('object-src') ?? d.get('default-src')
  const nonceOrHash = script?.some((s) => /^'(nonce-|sha256-|sha384-|sha512-)/.test(s)) ?? false
  const strictDynamic = script?.includes("'strict-dynamic'") ?? false
  const hostSourcesCount = !strictDynamic
  const broad = script?.filter((s) => BROAD_SOURCES.has(s)) ?? []
  const insecure = script?.filter((s) => /^(http|ftp):\/\//.test(s)) ?? []
  return {
    scriptName,
    objectName,
    scriptsUnrestricted: script === undefined,
    inline: script === undefined || (script.includes("'unsafe-inline'") && !nonceOrHash && !strictDynamic),
    eval: script === undefined || script.includes("'unsafe-eval'"),
    anySource: script === undefined ? ['*'] : hostSourcesCount ? broad : [],
    data: script === undefined || (hostSourcesCount && script.includes('data:')),
    insecure: !https ? [] : script === undefined ? ['http:'] : hostSourcesCount ? insecure : [],
    pluginsUnrestricted: object === undefined,
    pluginsBroad: object === undefined ? ['*'] : object.filter((s) => BROAD_SOURCES.has(s)),
  }
}

/** A weakness of the combined policy: one every policy shares (a load passes only if all allow it). */
function combinedProblems(policies: Directives[], https: boolean): Problem[] {
  const all = policies.map((d) => allowances(d, https))
  const every = (test: (a: (typeof all)[number]) => boolean) => all.every(test)
  const first = all.find((a) => !a.scriptsUnrestricted) ?? all[0]
  const problems: Problem[] = []

  if (every((a) => a.scriptsUnrestricted)) {
    problems.push({
      problem: 'neither script-src nor default-src is set, so scripts are not restricted',
      points: M.cspNoScriptRestriction,
    })
  } else {
    if (every((a) => a.inline))
      problems.push({
        problem: `'unsafe-inline' in ${first.scriptName} without a nonce or hash`,
        points: M.cspUnsafeInline,
      })
    if (every((a) => a.anySource.length > 0))
      problems.push({
        problem: `${first.scriptName} allows any source (${excerptList(first.anySource)})`,
        points: M.cspUnsafeInline,
      })
    if (every((a) => a.data))
      problems.push({ problem: `data: URLs in ${first.scriptName}`, points: M.cspUnsafeInline })
    if (every((a) => a.insecure.length > 0) && !every((a) => a.anySource.length > 0))
      problems.push({
        problem: `${first.scriptName} allows scripts over plain http (${excerptList(first.insecure)}) on an https page`,
        points: M.cspInsecureScheme,
      })
    if (every((a) => a.eval))
      problems.push({ problem: `'unsafe-eval' in ${first.scriptName}`, points: M.cspUnsafeEval })
  }

  const passive = policies.map((d) => insecurePassive(d, https))
  const shared = PASSIVE.filter((name) => passive.every((names) => names.includes(name)))
  if (shared.length > 0)
    problems.push({
      problem: `${shared.join(', ')} ${shared.length > 1 ? 'allow' : 'allows'} loading over plain http on an https page; use https: sources`,
      points: M.cspInsecurePassive,
      weak: false,
    })

  if (every((a) => a.pluginsUnrestricted)) {
    problems.push({
      problem:
        'neither object-src nor default-src is set, so plugins (<object>, <embed>) may load from anywhere',
      points: M.cspObjectUnrestricted,
    })
  } else if (every((a) => a.pluginsBroad.length > 0)) {
    const a = all.find((x) => !x.pluginsUnrestricted) ?? all[0]
    problems.push({
      problem: `${a.objectName} allows plugins from any source (${excerptList(a.pluginsBroad)})`,
      points: M.cspUnsafeInline,
    })
  }
  return problems
}

/** Sources named in a message: the site wrote them, so at most three short excerpts. */
function excerptList(sources: string[]): string {
  const shown = sources.slice(0, 3).map((s) => (/^[\w:*./'-]{1,40}$/.test(s) ? s : excerpt(s, 40)))
  return shown.join(' ') + (sources.length > 3 ? ' …' : '')
}
