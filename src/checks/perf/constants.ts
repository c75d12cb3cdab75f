/**
 * The numbers the performance estimate stands on. Lighthouse's own (v12/v13, read from
 * core/config/constants.js, the Lantern simulator in @paulirish/trace_engine and
 * core/audits/metrics/*.js), ours where we have to stand in for a browser, each with its reason.
 */
import type { LogNormalCurve } from '../lognormal.js'

/**
 * Lighthouse's default mobile run: simulated throttling "mobileSlow4G" (RTT 150 ms, 1.6 Mbit/s
 * down, i.e. 1638.4 Kbps, CPU slowed 4×) with Lantern's TCP model: 10-segment initial congestion
 * window of 1460-byte segments, slow start doubling each round trip up to the window the link can
 * fill in one RTT, two round trips for a DNS lookup, six connections per HTTP/1.1 origin, one per
 * h2 origin, at most 10 requests in flight.
 */
export const SIMULATED_MOBILE = {
  rttMs: 150,
  /** bits per second: Lantern multiplies throughputKbps by 1024. */
  throughputBps: 1638.4 * 1024,
  cpuSlowdown: 4,
  /** Lantern's DEFAULT_LAYOUT_TASK_MULTIPLIER: layout tasks are slowed by half the CPU factor. */
  layoutSlowdownShare: 0.5,
  initialCongestionWindow: 10,
  segmentBytes: 1460,
  dnsRoundTrips: 2,
  connectionsPerOrigin: 6,
  maxConcurrentRequests: 10,
  /** Lantern's DEFAULT_SERVER_RESPONSE_TIME for an origin it saw nothing of. */
  defaultServerMs: 30,
} as const

/** Lighthouse mobile metric curves (core/audits/metrics/*.js, scoring.md §2). */
export const METRIC_CURVES = {
  fcp: { p10: 1800, median: 3000 },
  lcp: { p10: 2500, median: 4000 },
  si: { p10: 3387, median: 5800 },
  tbt: { p10: 200, median: 600 },
  cls: { p10: 0.1, median: 0.25 },
} as const satisfies Record<string, LogNormalCurve>

/** Lighthouse v10+ performance weights (core/config/default-config.js). */
export const METRIC_WEIGHTS = { fcp: 10, si: 10, lcp: 25, tbt: 30, cls: 25 } as const

/**
 * Main-thread costs on the reference machine before the 4× slowdown, our own estimates (Lantern
 * takes them from a real trace; we have none). Chrome parses HTML at roughly 10-20 MB/s and V8
 * compiles and runs top-level code of typical bundles at 1-3 MB/s on a desktop; first style,
 * layout and paint of a simple page take a few milliseconds more for every 100 KB of CSS.
 */
export const CPU_COST = {
  htmlMsPerKB: 0.08,
  /**
   * Parsing and laying out the rest of a long document after the first paint (Chrome's parser
   * yields in short slices; the long task is the layout of the whole). Set from the tuning pages
   * measured through the lab (Lighthouse 12.8: 500 KB of text blocks for 68-272 ms; 0.25 made it
   * 450).
   */
  htmlAfterPaintMsPerKB: 0.12,
  scriptMsPerKB: 0.3,
  /**
   * Deferred, async and module scripts: half the cost of a parser-blocking one. Chrome compiles
   * them off the main thread while they download (script streaming) and nothing waits for them,
   * so their main-thread task is mostly running the code. Set from the tuning parts measured
   * through the lab (Lighthouse 12.8: one such script of S KB blocks for about 0.6·S − 50 ms),
   * never from single pages.
   */
  deferredScriptMsPerKB: 0.15,
  /** Every script task has a floor: compile, the event loop turn, the task itself. */
  scriptBaseMs: 1,
  styleMsPerKB: 0.15,
  firstLayoutMs: 6,
  /**
   * A relayout (a font or a first-screen image arrived) recomputes style for what changed, not
   * for every rule again: this share of the first style pass's per-KB cost (measured through the
   * lab: pages with 400 KB of CSS, two fonts and four images show no blocking time in Lighthouse).
   */
  relayoutStyleShare: 0.25,
  /** Decoding and painting an image, per 100 KB (of transfer bytes). */
  imageDecodeMsPer100KB: 2,
  /**
   * One turn of a long counted loop a script's text shows (page/script-scan.ts), ns: a loop body
   * of a few arithmetic operations runs some 10^8 turns a second in V8 on a desktop. Set from the
   * tuning pages measured through the lab (Lighthouse 12.8, CPU 4x: 40-80 M turns cost 1-4 s).
   */
  loopNsPerTurn: 10,
  /** Lighthouse counts the part of every main-thread task above 50 ms as blocking (TBT). */
  longTaskMs: 50,
} as const

/**
 * How much the gatherer may add to a check. Each request goes through the check's own guarded
 * agent (same SSRF rules, same budget), in parallel, and the whole phase stops at `wallMs`: what
 * did not answer by then is counted from its Content-Length, or not at all.
 */
export const GATHER_BOUNDS = {
  /** Requests in all (stylesheets, imports, scripts, images, fonts, redirect hops included). */
  maxRequests: 24,
  maxStylesheets: 8,
  maxScripts: 8,
  maxImages: 6,
  maxFonts: 4,
  /** @import levels followed below a stylesheet. */
  maxImportDepth: 2,
  /** Redirect hops followed per subresource, each validated like the page's own. */
  maxRedirects: 2,
  /** CSS kept for reading @import and @font-face. */
  maxCssBytes: 256 * 1024,
  /** Decoded bytes read per resource before we trust Content-Length or call it a lower bound. */
  maxBytesPerResource: 2 * 1024 * 1024,
  /** All subresource bytes read together. */
  maxTotalBytes: 6 * 1024 * 1024,
  /** Wall time of the whole phase, after the document has arrived. */
  wallMs: 800,
} as const

/**
 * Layout shift a browser would see, from what the document says (our own model; no browser runs):
 * a first-screen image without width and height moves the text under it when it arrives, and an
 * inline script that inserts content at the top after a timer or a network answer moves
 * everything. Set from the tuning part of the corpus measured through the lab (Lighthouse 12.8:
 * one such image 0.25-0.26, three 0.55; a 60-600 px block inserted late 0.08-0.70, 0.36 for
 * 300 px), never from single pages. When the inserting script sets the block's height in px,
 * the shift follows from it (viewportPx); else a typical block is assumed.
 */
export const LAYOUT_SHIFT = {
  firstUnsizedImage: 0.25,
  eachFurtherUnsizedImage: 0.15,
  /** A block inserted late whose height the script does not name. */
  lateInsert: 0.25,
  /**
   * A block of known height h inserted at the top moves everything under it by h: the layout
   * shift score is impact fraction × distance fraction, the whole viewport moved (impact 1) by
   * h over the viewport's larger side (Lighthouse's mobile screen: 412 × 823 CSS px).
   */
  viewportPx: 823,
  /** The width content gets on that screen (412 px less the body's margins), for scaling images. */
  contentWidthPx: 396,
  /**
   * Where the first image of a page is assumed to start (a heading and a paragraph above it):
   * an unsized image moves what lies between it and the bottom of the screen, so the constants
   * above hold for an image at this height. Sized images before an unsized one push it down by
   * their height (from their attributes), and the shift shrinks with the part of the screen
   * left under it: none once it starts below the screen. Our own geometry, not fitted.
   */
  firstImageTopPx: 150,
  /**
   * Text a client-side app's content pushes down (an empty mount element with text after it,
   * page/read.ts): its height from its characters, at a phone's 16 px text on a 396 px column
   * (some 55 characters a line, 20 px a line, between a browser's default line height and a
   * styled 1.5). The shift is that height over the screen's, never more than the screen.
   */
  charsPerLine: 55,
  linePx: 20,
  /** Beyond this the metric's score is 0 anyway. */
  max: 1,
} as const
