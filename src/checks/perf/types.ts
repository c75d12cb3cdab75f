/**
 * What the gatherer learns about a page's critical subresources (src/checks/perf/gather.ts) and
 * the estimate made from it (src/checks/perf/estimate.ts).
 */
import type { LoopWork } from '../page/script-scan.js'

export type ResourceKind = 'stylesheet' | 'script' | 'image' | 'font'

/** Scripts carry the loop work their text shows (LoopWork, page/script-scan.ts). */
export interface CriticalResource extends LoopWork {
  /** Absolute URL (after the page's base URL; before any redirect of its own). */
  url: string
  kind: ResourceKind
  /** Index (in `resources`) of the stylesheet that pulled it in via @import or @font-face; null: the document did. */
  parent: number | null
  /** A browser waits for it before the first paint: a stylesheet for the screen, a parser-blocking script in `<head>`. */
  renderBlocking: boolean
  /** Scripts: parser-blocking, deferred (defer, module) or async. */
  execution: 'blocking' | 'defer' | 'async' | null
  /** Images: the likely largest contentful paint of the first screen. */
  lcpCandidate: boolean
  /** Images: `loading="lazy"`. */
  lazy: boolean
  /** Images: among the first ones in document order, so plausibly on the first screen (Chrome raises their priority). */
  firstScreen: boolean
  /**
   * Fonts: the text's final paint waits for it (font-display auto or block: invisible for up to
   * 3 s; fallback: swapped in when it arrives early enough, which on the simulated link it does not
   * before the largest paint). swap and optional paint the fallback font at once.
   */
  blocksText: boolean
  /** Images: no width or height attribute, so the content under it moves when it arrives. */
  unsized?: boolean
  /** Images with width and height: the height (CSS px) they take on a phone's screen, scaled to its width. */
  heightPx?: number
  /** Fetched at all (false: blocked by the URL guard, or left out by a bound; see `error`). */
  fetched: boolean
  status: number | null
  h2: boolean
  /** Response body bytes as sent (compressed); the size the simulated link carries. */
  wireBytes: number
  /** Bytes after Content-Encoding was undone (what the CPU parses). */
  decodedBytes: number
  contentEncoding: string | null
  /** How sure the sizes are: read in full, from Content-Length, or a lower bound (a cap or the time bound cut it). */
  size: 'exact' | 'content-length' | 'lower-bound' | 'unknown'
  /** Request sent -> response headers, ms (the server's wait on our real link); null when unknown. */
  serverWaitMs: number | null
  /** Real time from the start of the gather to the end of this resource, ms. */
  realMs: number | null
  /** Why it was not fetched or not counted (a short sentence), else null. */
  error: string | null
}

export interface CriticalResources {
  resources: CriticalResource[]
  /** Subresources the page references that the bounds left out (counted, not fetched). */
  leftOut: number
  /** Requests made (redirect hops included). */
  requests: number
  /** Bytes read off the wire. */
  bytesRead: number
  /** Wall time the gather added to the check, ms. */
  elapsedMs: number
  /** Which bound stopped the gather early, if one did. */
  bound: 'time' | 'requests' | 'bytes' | null
}

/** The simulated-mobile estimate of Lighthouse's metrics, ms (CLS unitless). */
export interface MetricEstimate {
  fcp: number
  lcp: number
  si: number
  tbt: number
  cls: number
}
