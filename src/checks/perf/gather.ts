/**
 * The few extra requests the performance estimate needs: the page's critical subresources
 * (select.ts), then what their stylesheets pull in (@import chains, web fonts), fetched in parallel
 * through the check's own guarded agent, so every subresource URL and every redirect hop passes the
 * same SSRF guard as the page (a blocked one is recorded, never requested), and connections to the
 * page's origin are reused as a browser would.
 *
 * Bounded (GATHER_BOUNDS): at most 24 requests, 2 MiB read per resource and 6 MiB in all (past
 * that, Content-Length or a lower bound), 256 KiB of each stylesheet kept for reading, and 800 ms
 * of wall time after the document arrived; whatever has not answered by then is counted from its
 * Content-Length when its headers came, else left out and said so.
 */
import { performance } from 'node:perf_hooks'
import { request } from 'undici'
import { meterBody } from '../body-meter.js'
import { assertTargetAllowed, parseTargetUrl } from '../guard.js'
import type { GuardedAgent } from '../http-agent.js'
import { loopWork, SCAN_BYTES } from '../page/script-scan.js'
import type { PageInfo } from '../page/types.js'
import { GATHER_BOUNDS } from './constants.js'
import { cssImports, fontFaces } from './css.js'
import { blankResource, selectCritical } from './select.js'
import type { CriticalResource, CriticalResources, ResourceKind } from './types.js'

export interface GatherOptions {
  agent: GuardedAgent
  /** User-Agent and Accept-Encoding of the check. */
  headers: Record<string, string>
  /** The check's own budget: aborting it stops the gather too. */
  signal: AbortSignal
  allowPrivateTargets?: boolean
  /** Test seam: a tighter wall-time bound. */
  wallMs?: number
}

const ACCEPT: Record<ResourceKind, string> = {
  stylesheet: 'text/css,*/*;q=0.1',
  script: '*/*',
  image: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8',
  font: '*/*',
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

export async function gatherCritical(page: PageInfo, opts: GatherOptions): Promise<CriticalResources> {
  const start = performance.now()
  const { resources, leftOut: selectedOut } = selectCritical(page)
  // nothing to fetch: no deadline to arm (AbortSignal.timeout would fire, a DOMException made and
  // dispatched, after every check of a page without critical subresources)
  if (resources.length === 0)
    return {
      resources,
      leftOut: selectedOut,
      requests: 0,
      bytesRead: 0,
      elapsedMs: Math.round(performance.now() - start),
      bound: null,
    }
  const deadline = AbortSignal.timeout(opts.wallMs ?? GATHER_BOUNDS.wallMs)
  const signal = AbortSignal.any([opts.signal, deadline])
  const state = { requests: 0, bytes: 0, leftOut: selectedOut, bound: null as CriticalResources['bound'] }
  const seen = new Set(resources.map((r) => r.url))

  const fetchAll = async (indexes: number[], depth: number): Promise<void> => {
    await Promise.all(
      indexes.map(async (i) => {
        const css = await fetchOne(resources[i], opts, signal, state, start)
        if (css === null) return
        const found: number[] = []
        const push = (r: CriticalResource) => {
          if (seen.has(r.url)) return
          seen.add(r.url)
          resources.push(r)
          found.push(resources.length - 1)
        }
        const base = resources[i].url
        // depth 1 is the page's own stylesheets: follow @import two levels below them
        if (depth <= GATHER_BOUNDS.maxImportDepth)
          for (const href of cssImports(css)) {
            const url = resolve(href, base)
            if (url)
              push({ ...blankResource(url, 'stylesheet', i), renderBlocking: resources[i].renderBlocking })
          }
        for (const face of fontFaces(css)) {
          const url = resolve(face.url, base)
          if (!url) continue
          const preloaded = resources.find((r) => r.kind === 'font' && r.url === url)
          if (preloaded) {
            preloaded.blocksText = face.blocksText
            continue
          }
          if (resources.filter((r) => r.kind === 'font').length >= GATHER_BOUNDS.maxFonts) state.leftOut++
          else push({ ...blankResource(url, 'font', i), blocksText: face.blocksText })
        }
        if (found.length > 0) await fetchAll(found, depth + 1)
      }),
    )
  }
  await fetchAll(
    resources.map((_, i) => i),
    1,
  )
  if (deadline.aborted && !state.bound) state.bound = 'time'
  return {
    resources,
    leftOut: state.leftOut,
    requests: state.requests,
    bytesRead: state.bytes,
    elapsedMs: Math.round(performance.now() - start),
    bound: state.bound,
  }
}

/** Fetches one resource into `r`; returns a stylesheet's text (bounded) for reading, else null. */
async function fetchOne(
  r: CriticalResource,
  opts: GatherOptions,
  signal: AbortSignal,
  state: { requests: number; bytes: number; bound: CriticalResources['bound']; leftOut: number },
  start: number,
): Promise<string | null> {
  let url: URL
  try {
    url = parseTargetUrl(r.url)
    assertTargetAllowed(url, { allowPrivateTargets: opts.allowPrivateTargets })
  } catch (err) {
    r.error = `not fetched: ${reason(err)}`
    return null
  }
  const headers = { ...opts.headers, accept: ACCEPT[r.kind] }
  try {
    for (let hop = 0; ; hop++) {
      if (signal.aborted) throw signal.reason
      if (state.requests >= GATHER_BOUNDS.maxRequests) {
        state.bound ??= 'requests'
        r.error = 'not fetched: the request bound was reached'
        state.leftOut++
        return null
      }
      if (state.bytes >= GATHER_BOUNDS.maxTotalBytes) {
        state.bound ??= 'bytes'
        r.error = 'not fetched: the byte bound was reached'
        state.leftOut++
        return null
      }
      state.requests++
      const sent = performance.now()
      const res = await request(url, { dispatcher: opts.agent.agent, method: 'GET', headers, signal })
      const headersAt = performance.now()
      const location = first(res.headers.location)
      if (REDIRECTS.has(res.statusCode) && location !== undefined) {
        await res.body.dump().catch(() => {})
        if (hop >= GATHER_BOUNDS.maxRedirects) {
          r.error = `not fetched: more than ${GATHER_BOUNDS.maxRedirects} redirects`
          return null
        }
        const next = resolve(location, url.href)
        try {
          if (!next) throw new Error('an invalid redirect')
          url = parseTargetUrl(next)
          assertTargetAllowed(url, { allowPrivateTargets: opts.allowPrivateTargets })
        } catch (err) {
          r.error = `not fetched: redirects to ${reason(err)}`
          return null
        }
        continue
      }
      r.fetched = true
      r.status = res.statusCode
      const conn = opts.agent.latest(url)
      r.h2 = conn?.alpnProtocol === 'h2'
      const fresh = conn && conn.openedAt >= sent && conn.readyAt !== null ? conn.readyAt : sent
      r.serverWaitMs = round(headersAt - Math.max(sent, fresh))
      r.contentEncoding = first(res.headers['content-encoding'])?.toLowerCase() ?? null
      const length = Number(first(res.headers['content-length']))
      const hasLength = Number.isFinite(length) && length >= 0
      const identity = r.contentEncoding === null || r.contentEncoding === 'identity'

      // an image's or a font's size is all the estimate needs: trust Content-Length and hang up
      if ((r.kind === 'image' || r.kind === 'font') && hasLength) {
        // hanging up makes the body emit an abort error: nobody reads it, so it must not go unheard
        res.body.on('error', () => {})
        res.body.destroy()
        r.wireBytes = length
        r.decodedBytes = length
        r.size = 'content-length'
        r.realMs = round(headersAt - start)
        return null
      }
      // a script's text is read for long counted and timed loops (script-scan.ts), then dropped
      const keep = r.kind === 'stylesheet' ? GATHER_BOUNDS.maxCssBytes : r.kind === 'script' ? SCAN_BYTES : 0
      const count = await meterBody(
        res.body,
        r.contentEncoding,
        GATHER_BOUNDS.maxBytesPerResource,
        signal,
        keep,
      )
      state.bytes += count.wire
      r.realMs = round(performance.now() - start)
      r.wireBytes = count.wire
      r.decodedBytes = count.decoded
      r.size = count.truncated ? 'lower-bound' : 'exact'
      if (count.truncated && hasLength && length > count.wire) {
        r.wireBytes = length
        if (identity) r.decodedBytes = length
        r.size = 'content-length'
      }
      if (count.interruption && signal.aborted) r.error = 'cut short by the time bound; size is a lower bound'
      if (r.kind === 'script' && res.statusCode < 300) {
        Object.assign(
          r,
          loopWork(count.retained.toString('utf8'), { afterDomContentLoaded: r.execution === 'async' }),
        )
      }
      return r.kind === 'stylesheet' && res.statusCode < 300 ? count.retained.toString('utf8') : null
    }
  } catch (err) {
    if (!r.fetched)
      r.error = signal.aborted ? 'not fetched within the time bound' : `not fetched: ${reason(err)}`
    return null
  }
}

function reason(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err)
  return msg.length > 160 ? `${msg.slice(0, 157)}...` : msg
}

function resolve(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

const round = (ms: number) => Math.round(ms * 10) / 10
