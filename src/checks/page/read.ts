/**
 * Reads an HTML document into PageInfo with htmlparser2's tolerant streaming tokenizer (no DOM is
 * built). htmlparser2 does not run the HTML tree builder, so the few tree rules that change what a
 * browser applies are followed here, from the HTML Living Standard:
 *
 * - head vs body: the document is "in head" until `<body>`, a start tag that cannot live in
 *   `<head>`, or visible text; head-only elements after `</head>` are still moved into the head
 *   ("after head" insertion mode), so `</head>` alone does not end it.
 * - `<base href>`: the first one with an href sets the base of every URL in the document, those
 *   before it included; an unparsable one, or a data:/javascript: one, is ignored.
 * - `<noscript>` contents are plain text in a browser with scripting on: nothing inside loads or
 *   applies (images are still listed, flagged `inNoscript`, for estimators that want them).
 * - `<template>` contents are inert: nothing inside is read.
 * - script types: no type or a JavaScript MIME type is a classic script, `module` a module, any other
 *   type (JSON, import maps, templates) a data block the browser never runs (`inert`).
 */
import { Parser } from 'htmlparser2'
import type { PageImage, PageInfo, PageScript, PageStylesheet } from './types.js'
import { insertedHeightPx, loopWork } from './script-scan.js'

export interface ReadPageOptions {
  /** The document went on past what was kept (the cap) or was cut short. */
  truncated?: boolean
}

/** Elements the tree builder keeps in (or moves into) `<head>`; any other start tag opens the body. */
const HEAD_ELEMENTS = new Set([
  'html',
  'head',
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'noscript',
  'script',
  'style',
  'template',
  'title',
])

/** HTML Standard "JavaScript MIME type essence match": the only type values that run as classic script. */
const JS_MIME_TYPES = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
])

const HINT_RELS = new Set(['preload', 'modulepreload', 'preconnect', 'dns-prefetch', 'prefetch'])

/** Text inside these is never rendered as body text. */
const NO_TEXT = new Set(['script', 'style', 'template', 'noscript', 'title', 'textarea'])

type Attrs = Record<string, string>

/** URLs are collected as written and resolved at the end, once the document's base is known. */
type Raw<T, K extends keyof T> = Omit<T, K> & { [P in K]: string }

export function readPage(html: string, documentUrl: string, opts: ReadPageOptions = {}): PageInfo {
  let baseHref: string | null = null
  let inBody = false
  const open: Record<string, number> = { template: 0, noscript: 0, picture: 0 }
  const rawScripts: PageScript[] = []
  const rawSheets: Raw<PageStylesheet, 'href'>[] = []
  const rawImages: Raw<PageImage, 'src'>[] = []
  const rawHints: Raw<PageInfo['hints'][number], 'href'>[] = []
  const rawStyles: { bytes: number; inHead: boolean; css: string }[] = []
  const httpEquiv: PageInfo['httpEquiv'] = []
  const metaReferrer: string[] = []
  let textChars = 0
  // the raw-text element being read (script/style): its text arrives in chunks
  let rawText: { kind: 'script' | 'style'; text: string; record: boolean } | null = null
  const noText: string[] = []
  const mounts = new MountTracker()

  const inert = () => open.template > 0 || open.noscript > 0

  const parser = new Parser(
    {
      onopentag(name, attrs: Attrs) {
        if (open.template > 0) {
          if (name === 'template') open.template++
          return
        }
        if (!HEAD_ELEMENTS.has(name)) inBody = true
        if (name === 'body') inBody = true
        mounts.open(name, attrs)
        if (name in open) open[name]++
        if (NO_TEXT.has(name)) noText.push(name)
        const inHead = !inBody

        switch (name) {
          case 'base':
            if (baseHref === null && attrs.href !== undefined && !inert()) baseHref = attrs.href
            break
          case 'meta':
            if (inert()) break
            if (attrs['http-equiv'] !== undefined && inHead)
              httpEquiv.push({ name: attrs['http-equiv'].trim().toLowerCase(), content: attrs.content ?? '' })
            if (attrs.name?.trim().toLowerCase() === 'referrer') metaReferrer.push(attrs.content ?? '')
            break
          case 'script': {
            const record = !inert()
            rawText = { kind: 'script', text: '', record }
            if (record) rawScripts.push(scriptOf(attrs, inHead))
            break
          }
          case 'style':
            rawText = { kind: 'style', text: '', record: !inert() }
            break
          case 'link': {
            if (inert() || attrs.href === undefined) break
            const link = linkOf(attrs.href, attrs, inHead)
            if (link.sheet) rawSheets.push(link.sheet)
            rawHints.push(...link.hints)
            break
          }
          case 'img': {
            if (open.template > 0) break
            const image = imageOf(attrs, open.picture > 0, open.noscript > 0)
            if (image) rawImages.push(image)
            if (image && !image.inNoscript) mounts.image(image.width, image.height)
            break
          }
        }
      },

      ontext(text) {
        if (rawText) {
          rawText.text += text
          return
        }
        if (open.template > 0 || noText.length > 0) return
        const visible = text.replace(/\s+/g, ' ').trim()
        if (!visible) return
        // text cannot live in <head>: the browser opens <body> for it
        inBody = true
        textChars += visible.length
        mounts.text(visible.length)
      },

      onclosetag(name) {
        if (open.template > 0 && name !== 'template') return
        if (name in open && open[name] > 0) open[name]--
        if (noText.at(-1) === name) noText.pop()
        mounts.close(name)
        if (rawText && name === rawText.kind) {
          const { kind, text, record } = rawText
          rawText = null
          if (!record) return
          const bytes = Buffer.byteLength(text)
          if (kind === 'script') {
            const script = rawScripts.at(-1)
            if (script && script.src === null) Object.assign(script, inlineScriptFacts(text, bytes))
          } else {
            rawStyles.push({ bytes, inHead: !inBody, css: text })
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(html)
  parser.end()

  const info = pageInfo(html, documentUrl, baseHref, opts, {
    httpEquiv,
    metaReferrer,
    rawScripts,
    rawSheets,
    rawStyles,
    rawImages,
    rawHints,
    textChars,
  })
  return mounts.found ? { ...info, emptyMount: mounts.result() } : info
}

/** Elements a client-side app renders into. */
const MOUNT_ELEMENTS = new Set(['div', 'main', 'section', 'article'])

/**
 * The first empty container with an id in `<body>` (`<div id="app"></div>`: where a script renders
 * the page), and the visible text the document has after it (what that rendering pushes down).
 */
class MountTracker {
  found = false
  textAfter = 0
  private candidate: string | null = null

  open(name: string, attrs: Attrs) {
    this.candidate = !this.found && MOUNT_ELEMENTS.has(name) && attrs.id ? name : null
  }
  /** Images with width and height after the container (they move with the text), at most 8. */
  imagesAfter: { width: number; height: number }[] = []
  text(chars: number) {
    if (this.found) this.textAfter += chars
    this.candidate = null
  }
  result(): NonNullable<PageInfo['emptyMount']> {
    return { textCharsAfter: this.textAfter, sizedImagesAfter: this.imagesAfter }
  }
  image(width: number | null, height: number | null) {
    if (this.found && width && height && this.imagesAfter.length < 8) this.imagesAfter.push({ width, height })
    this.candidate = null
  }
  close(name: string) {
    if (this.candidate === name) this.found = true
    this.candidate = null
  }
}

/** What was read, with every URL resolved against the document's base (unparsable ones dropped). */
function pageInfo(
  html: string,
  documentUrl: string,
  baseHref: string | null,
  opts: ReadPageOptions,
  read: {
    httpEquiv: PageInfo['httpEquiv']
    metaReferrer: string[]
    rawScripts: PageScript[]
    rawSheets: Raw<PageStylesheet, 'href'>[]
    rawStyles: { bytes: number; inHead: boolean; css: string }[]
    rawImages: Raw<PageImage, 'src'>[]
    rawHints: Raw<PageInfo['hints'][number], 'href'>[]
    textChars: number
  },
): PageInfo {
  const { httpEquiv, metaReferrer, rawScripts, rawSheets, rawStyles, rawImages, rawHints, textChars } = read
  const baseUrl = documentBase(documentUrl, baseHref)
  const resolve = (href: string) => resolveUrl(href, baseUrl)
  const keep = <T extends { [k: string]: unknown }>(items: T[], key: keyof T): T[] =>
    items.flatMap((item) => {
      const url = resolve(item[key] as string)
      return url === null ? [] : [{ ...item, [key]: url }]
    })

  return {
    baseUrl,
    bytesParsed: Buffer.byteLength(html),
    truncated: opts.truncated ?? false,
    httpEquiv,
    metaReferrer,
    scripts: rawScripts.flatMap((s) => {
      if (s.src === null) return [s]
      const src = resolve(s.src)
      // an unparsable src fails to load: nothing runs
      return src === null ? [] : [{ ...s, src, inlineBytes: 0 }]
    }),
    stylesheets: keep(rawSheets, 'href'),
    inlineStyles: rawStyles.map(({ bytes, inHead, css }) => ({
      bytes,
      inHead,
      imports: cssImports(css).flatMap((href) => resolve(href) ?? []),
      ...fontFaceRules(css),
    })),
    images: keep(rawImages, 'src'),
    hints: keep(rawHints, 'href'),
    textChars,
  }
}

/** A `<script>` as written (its src resolved later, its inline bytes counted at its end). */
function scriptOf(attrs: Attrs, inHead: boolean): PageScript {
  const type = scriptType(attrs.type)
  return {
    src: attrs.src ?? null,
    inlineBytes: 0,
    integrity: attrs.integrity ?? null,
    crossorigin: attrs.crossorigin ?? null,
    async: attrs.async !== undefined,
    defer: attrs.defer !== undefined,
    module: type === 'module',
    inert: type === 'data',
    nomodule: attrs.nomodule !== undefined,
    inHead,
  }
}

/** A `<link>`: a stylesheet (alternate ones count as disabled) and any resource hints it carries. */
function linkOf(
  href: string,
  attrs: Attrs,
  inHead: boolean,
): { sheet: Raw<PageStylesheet, 'href'> | null; hints: Raw<PageInfo['hints'][number], 'href'>[] } {
  const rels = (attrs.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean)
  const sheet = rels.includes('stylesheet')
    ? {
        href,
        media: attrs.media ?? null,
        integrity: attrs.integrity ?? null,
        crossorigin: attrs.crossorigin ?? null,
        disabled: attrs.disabled !== undefined || rels.includes('alternate'),
        inHead,
      }
    : null
  const hints = rels
    .filter((r) => HINT_RELS.has(r))
    .map((rel) => ({
      rel,
      href,
      as: attrs.as?.toLowerCase() ?? null,
      type: attrs.type ?? null,
      crossorigin: attrs.crossorigin ?? null,
    }))
  return { sheet, hints }
}

/** An `<img>` with its src (or the first srcset candidate); null when it names no image. */
function imageOf(attrs: Attrs, inPicture: boolean, inNoscript: boolean): Raw<PageImage, 'src'> | null {
  const src = attrs.src?.trim() ? attrs.src : firstCandidate(attrs.srcset)
  if (!src) return null
  const loading = attrs.loading?.trim().toLowerCase()
  return {
    src,
    srcset: attrs.srcset ?? null,
    sizes: attrs.sizes ?? null,
    loading: loading === 'lazy' || loading === 'eager' ? loading : null,
    fetchpriority: attrs.fetchpriority?.trim().toLowerCase() ?? null,
    width: dimension(attrs.width),
    height: dimension(attrs.height),
    inPicture,
    inNoscript,
  }
}

function scriptType(type: string | undefined): 'classic' | 'module' | 'data' {
  if (type === undefined) return 'classic'
  const t = type.trim().toLowerCase()
  if (t === '' || JS_MIME_TYPES.has(t)) return 'classic'
  return t === 'module' ? 'module' : 'data'
}

/** HTML Standard "document base URL": a data: or javascript: base, or one that does not parse, is ignored. */
function documentBase(documentUrl: string, href: string | null): string {
  if (href === null) return documentUrl
  const url = resolveUrl(href, documentUrl)
  if (url === null || /^(data|javascript):/i.test(url)) return documentUrl
  return url
}

function resolveUrl(href: string, base: string): string | null {
  const trimmed = href.trim()
  if (trimmed === '') return null
  try {
    return new URL(trimmed, base).href
  } catch {
    return null
  }
}

/** The URL of the first image candidate in a srcset (HTML Standard "parse a srcset attribute"). */
function firstCandidate(srcset: string | undefined): string | null {
  const match = /^[\s,]*(\S+)/.exec(srcset ?? '')
  if (!match) return null
  const url = match[1].replace(/,+$/, '')
  return url === '' ? null : url
}

/** "Rules for parsing dimension values", integer part: leading digits after optional whitespace. */
function dimension(value: string | undefined): number | null {
  const match = /^\s*(\d+)/.exec(value ?? '')
  return match ? Number(match[1]) : null
}

/**
 * The `@import` URLs of a style sheet. CSS only honours `@import` before any other rule (apart from
 * `@charset` and `@layer` statements), so reading stops at the first other rule.
 */
export function cssImports(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '')
  const imports: string[] = []
  const rule =
    /^\s*(?:@charset\s+"[^"]*"\s*;|@layer\s+[\w\s,.-]+;|@import\s+(?:url\(\s*(["']?)([^"')]*)\1\s*\)|(["'])(.*?)\3)[^;]*;?)/i
  let rest = text
  for (;;) {
    const m = rule.exec(rest)
    if (!m) break
    const href = m[2] ?? m[4]
    if (href !== undefined) imports.push(href)
    rest = rest.slice(m[0].length)
  }
  return imports
}

/**
 * Timers, promises and the load event: code that runs after the first paint (a page's first paint
 * comes before its load event whenever anything is still loading).
 */
const LATER =
  /\b(setTimeout|setInterval|requestIdleCallback)\s*\(|\.then\s*\(|\bawait\s|addEventListener\s*\(\s*['"]load['"]|\bonload\s*=/
/** DOM calls that put new content before or at the top of existing content. */
const INSERTS_ABOVE =
  /\.(insertBefore|prepend|before)\s*\(|\.insertAdjacent(HTML|Element|Text)\s*\(\s*['"](beforebegin|afterbegin)['"]/i

/** What an inline script's text shows: its size, whether it inserts content late (and how tall), its long and timed loops. */
function inlineScriptFacts(text: string, bytes: number): Partial<PageScript> {
  const facts: Partial<PageScript> = { inlineBytes: bytes }
  if (insertsLate(text)) {
    facts.insertsLate = true
    const px = insertedHeightPx(text)
    if (px !== null) facts.insertPx = px
  }
  return Object.assign(facts, loopWork(text))
}

/** An inline script that inserts content above what is shown, after a timer, a network answer or the load event. */
function insertsLate(code: string): boolean {
  const head = code.slice(0, 64 * 1024)
  return LATER.test(head) && INSERTS_ABOVE.test(head)
}

const FONT_FACE_RULE = /@font-face\s*\{[^{}]*\}/gi

/** An inline style's @font-face rules (at most 8 KB of them), when it has any. */
function fontFaceRules(css: string): { fontFaceCss?: string } {
  const rules = css.slice(0, 256 * 1024).match(FONT_FACE_RULE)
  return rules ? { fontFaceCss: rules.join('\n').slice(0, 8 * 1024) } : {}
}
