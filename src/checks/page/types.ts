/**
 * What the probe reads of an HTML document (bounded), for the signals that judge the page itself:
 * meta policies and third-party scripts (security_headers), render-blocking resources, images and
 * fonts (pagespeed). URLs are absolute, resolved against `baseUrl`. Document order is kept in every
 * list, because order is what a browser acts on (the last valid referrer policy wins, the first
 * images are the likely largest contentful paint).
 */
import type { LoopWork } from './script-scan.js'

export interface PageInfo {
  /** The URL the relative URLs below were resolved against (the final URL, or a valid `<base href>`). */
  baseUrl: string
  /** Decoded HTML bytes parsed, and whether the document went on past the parse cap. */
  bytesParsed: number
  truncated: boolean
  /** `<meta http-equiv>` elements inside `<head>`: name lowercased, content as written. */
  httpEquiv: { name: string; content: string }[]
  /** `content` of each `<meta name="referrer">`, in document order. */
  metaReferrer: string[]
  scripts: PageScript[]
  stylesheets: PageStylesheet[]
  /** Inline `<style>` blocks. */
  inlineStyles: {
    bytes: number
    inHead: boolean
    imports: string[]
    /** Its @font-face rules, as written (bounded), for the web fonts the page's text waits for. */
    fontFaceCss?: string
  }[]
  images: PageImage[]
  /** `<link rel>` hints: preload, modulepreload, preconnect, dns-prefetch, prefetch. */
  hints: { rel: string; href: string; as: string | null; type: string | null; crossorigin: string | null }[]
  /** Characters of visible text in `<body>` (scripts, styles and templates excluded). */
  textChars: number
  /**
   * The first empty container with an id (`<div id="app"></div>`), where a client-side app renders
   * its content, and the visible text after it, which that content pushes down when it arrives,
   * with the images of known size after it (at most 8).
   */
  emptyMount?: { textCharsAfter: number; sizedImagesAfter?: { width: number; height: number }[] }
}

/** Inline scripts carry the loop work their text shows (LoopWork, script-scan.ts). */
export interface PageScript extends LoopWork {
  /** Absolute URL; null for an inline script. */
  src: string | null
  /** Bytes of an inline script's code (0 for external ones). */
  inlineBytes: number
  /**
   * An inline script that puts elements above existing content after a timer, a network answer or
   * the load event (setTimeout, a promise's then, addEventListener('load')): content that arrives
   * after the first paint and moves the page.
   */
  insertsLate?: boolean
  /** An inserting script's tallest block height set in CSS px (script-scan.ts), when it names one. */
  insertPx?: number
  integrity: string | null
  crossorigin: string | null
  async: boolean
  defer: boolean
  /** `type="module"` (deferred by default). */
  module: boolean
  /** A `type` that is not JavaScript (JSON, templates): never executed. */
  inert: boolean
  /** `nomodule`: browsers that support modules (all current ones) neither fetch nor run it. */
  nomodule: boolean
  inHead: boolean
}

export interface PageStylesheet {
  href: string
  media: string | null
  integrity: string | null
  crossorigin: string | null
  /** `disabled`, or `rel="alternate stylesheet"`: not render-blocking. */
  disabled: boolean
  inHead: boolean
}

export interface PageImage {
  /** Absolute URL of `src` (or of the first `srcset` candidate when there is no `src`). */
  src: string
  srcset: string | null
  sizes: string | null
  loading: 'lazy' | 'eager' | null
  fetchpriority: string | null
  width: number | null
  height: number | null
  /** Inside `<picture>`, `<noscript>`, or a `data:` URL: noted so estimators can skip or discount. */
  inPicture: boolean
  inNoscript: boolean
}
