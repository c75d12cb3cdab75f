/**
 * Which subresources of a page matter for its first screen, read from the parsed document, in the
 * order a browser would want them: render-blocking stylesheets, scripts (parser-blocking ones in
 * `<head>` first), the first images (one of which is the likely largest contentful paint), and the
 * web fonts preloaded by the page. Fonts and @imports named by the stylesheets come later (css.ts),
 * once the stylesheets are read.
 */
import type { PageInfo, PageImage, PageScript, PageStylesheet } from '../page/types.js'
import { GATHER_BOUNDS, LAYOUT_SHIFT } from './constants.js'
import { fontFaces } from './css.js'
import type { CriticalResource, ResourceKind } from './types.js'

/** Images a mobile first screen (412 × 823 CSS px in Lighthouse) plausibly shows, in document order. */
const FIRST_SCREEN_IMAGES = 3

export interface Selection {
  resources: CriticalResource[]
  leftOut: number
}

export function blankResource(url: string, kind: ResourceKind, parent: number | null): CriticalResource {
  return {
    url,
    kind,
    parent,
    renderBlocking: false,
    execution: null,
    lcpCandidate: false,
    lazy: false,
    firstScreen: false,
    blocksText: false,
    fetched: false,
    status: null,
    h2: false,
    wireBytes: 0,
    decodedBytes: 0,
    contentEncoding: null,
    size: 'unknown',
    serverWaitMs: null,
    realMs: null,
    error: null,
  }
}

export function selectCritical(page: PageInfo): Selection {
  const resources: CriticalResource[] = []
  let leftOut = 0
  const seen = new Set<string>()
  const add = (r: CriticalResource, cap: number, count: () => number) => {
    if (!isFetchable(r.url) || seen.has(r.url)) return
    if (count() >= cap) {
      leftOut++
      return
    }
    seen.add(r.url)
    resources.push(r)
  }
  const countOf = (kind: ResourceKind) => () => resources.filter((r) => r.kind === kind).length

  // stylesheets for the screen block rendering (HTML Standard: a "script-blocking" and
  // "render-blocking" style sheet); print-only or disabled ones are fetched late and block nothing
  for (const s of page.stylesheets) {
    if (!blocksRender(s)) continue
    add(
      { ...blankResource(s.href, 'stylesheet', null), renderBlocking: true },
      GATHER_BOUNDS.maxStylesheets,
      countOf('stylesheet'),
    )
  }
  // @import inside an inline <style> in <head> blocks like a <link>
  for (const style of page.inlineStyles)
    for (const href of style.imports)
      add(
        { ...blankResource(href, 'stylesheet', null), renderBlocking: style.inHead },
        GATHER_BOUNDS.maxStylesheets,
        countOf('stylesheet'),
      )

  const scripts = page.scripts.filter((s) => s.src !== null && !s.inert && !isNoModule(s))
  const ordered = [
    ...scripts.filter((s) => execution(s) === 'blocking' && s.inHead),
    ...scripts.filter((s) => !(execution(s) === 'blocking' && s.inHead)),
  ]
  for (const s of ordered) {
    const mode = execution(s)
    add(
      {
        ...blankResource(s.src!, 'script', null),
        execution: mode,
        // a parser-blocking script in <body> holds back everything after it; Lantern counts it
        // towards the first paint like a head one when it finished first (as on a real load)
        renderBlocking: mode === 'blocking',
      },
      GATHER_BOUNDS.maxScripts,
      countOf('script'),
    )
  }

  const images = page.images.filter((img) => !img.inNoscript && isFetchable(img.src))
  const candidate = lcpCandidate(images)
  images.forEach((img, i) => {
    const lazy = img.loading === 'lazy'
    const firstScreen = i < FIRST_SCREEN_IMAGES
    // a lazy image further down is not requested during the load (Chrome waits until it nears the viewport)
    if (lazy && !firstScreen) return
    add(
      {
        ...blankResource(img.src, 'image', null),
        lazy,
        firstScreen,
        lcpCandidate: img === candidate,
        unsized: img.width === null || img.height === null,
        ...(img.width && img.height
          ? { heightPx: img.height * Math.min(1, LAYOUT_SHIFT.contentWidthPx / img.width) }
          : {}),
      },
      GATHER_BOUNDS.maxImages,
      countOf('image'),
    )
  })

  // web fonts of the page's own <style> blocks: found with the document, like a preload
  for (const style of page.inlineStyles)
    for (const face of style.fontFaceCss ? fontFaces(style.fontFaceCss) : []) {
      const url = absolute(face.url, page.baseUrl)
      if (url)
        add(
          { ...blankResource(url, 'font', null), blocksText: face.blocksText },
          GATHER_BOUNDS.maxFonts,
          countOf('font'),
        )
    }

  for (const hint of page.hints)
    if (hint.rel === 'preload' && hint.as === 'font')
      // a preloaded font starts with the document; whether its text waits is the @font-face's call
      add(
        { ...blankResource(hint.href, 'font', null), blocksText: true },
        GATHER_BOUNDS.maxFonts,
        countOf('font'),
      )

  return { resources, leftOut }
}

/**
 * The likely largest contentful paint among the first-screen images: one marked
 * fetchpriority=high, else the largest declared area, else the first. A lazy image after an eager
 * one is taken to be below the first screen (what lazy loading is for), so it is no candidate; a
 * lazy image with only lazy ones before it is likely the hero itself, lazy-loaded.
 */
function lcpCandidate(images: PageImage[]): PageImage | undefined {
  const firstScreen = images
    .slice(0, FIRST_SCREEN_IMAGES)
    .filter((img, i, all) => img.loading !== 'lazy' || all.slice(0, i).every((b) => b.loading === 'lazy'))
  const high = firstScreen.find((img) => img.fetchpriority?.toLowerCase() === 'high')
  if (high) return high
  const area = (img: PageImage) => (img.width ?? 0) * (img.height ?? 0)
  const sized = firstScreen.filter((img) => area(img) > 0)
  // tiny declared images (icons, tracking pixels) are never the largest paint
  const big = firstScreen.filter((img) => area(img) === 0 || area(img) >= 100 * 100)
  if (sized.length === firstScreen.length && sized.length > 0)
    return sized.reduce((a, b) => (area(b) > area(a) ? b : a))
  return big[0]
}

function execution(s: PageScript): 'blocking' | 'defer' | 'async' {
  if (s.async) return 'async'
  if (s.defer || s.module) return 'defer'
  return 'blocking'
}

function isNoModule(s: PageScript): boolean {
  return (s as PageScript & { nomodule?: boolean }).nomodule === true
}

/** A media query that can match a phone screen; `print`, `speech` and `not all` cannot. */
function blocksRender(s: PageStylesheet): boolean {
  if (s.disabled) return false
  const media = (s.media ?? '').trim().toLowerCase()
  if (media === '' || media === 'all' || media === 'screen') return true
  return media.split(',').some((q) => {
    const query = q.trim()
    if (/^not\s+all\b/.test(query)) return false
    if (/^(only\s+)?(print|speech)\b/.test(query)) return false
    if (/^not\s+(screen|all)\b/.test(query)) return false
    return true
  })
}

function isFetchable(url: string): boolean {
  return /^https?:\/\//i.test(url)
}

function absolute(href: string, base: string): string | null {
  try {
    return new URL(href, base).href
  } catch {
    return null
  }
}
