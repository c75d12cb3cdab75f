// The page reader against the HTML Living Standard's parsing and fetching rules (tree construction
// "in head" / "after head", document base URL, srcset parsing, script types, <noscript>, <template>)
// and CSS Cascade's placement rule for @import.
import { describe, expect, it } from 'vitest'
import { cssImports, decodeHtml, isHtml, readPage } from '../../../src/checks/page/index.js'

const URL0 = 'https://example.com/dir/page.html'
const read = (html: string, truncated = false) => readPage(html, URL0, { truncated })

describe('head and body (HTML Standard tree construction)', () => {
  it('reads <meta http-equiv> only inside <head>, in document order, name lowercased', () => {
    const p = read(`<!doctype html><html><head>
      <meta http-equiv="Content-Security-Policy" content="default-src 'self'">
      <meta HTTP-EQUIV="refresh" content="5">
      </head><body><meta http-equiv="content-security-policy" content="script-src *"></body></html>`)
    expect(p.httpEquiv).toEqual([
      { name: 'content-security-policy', content: "default-src 'self'" },
      { name: 'refresh', content: '5' },
    ])
  })

  it('keeps head-only elements after </head> in the head ("after head" mode), until the body opens', () => {
    const p = read(
      `<head></head><meta http-equiv="x-test" content="1"><script src="/a.js"></script><div>x</div><script src="/b.js"></script>`,
    )
    expect(p.httpEquiv).toEqual([{ name: 'x-test', content: '1' }])
    expect(p.scripts.map((s) => [s.src, s.inHead])).toEqual([
      ['https://example.com/a.js', true],
      ['https://example.com/b.js', false],
    ])
  })

  it('implies <head> without tags, and ends it at visible text', () => {
    const p = read(`<meta http-equiv="a" content="1">Hello<meta http-equiv="b" content="2">`)
    expect(p.httpEquiv.map((m) => m.name)).toEqual(['a'])
    expect(p.textChars).toBe(5)
  })

  it('reads <meta name=referrer> wherever it is, in order', () => {
    const p = read(
      `<head><meta name="referrer" content="no-referrer"></head><body><meta name="Referrer" content="unsafe-url"></body>`,
    )
    expect(p.metaReferrer).toEqual(['no-referrer', 'unsafe-url'])
  })

  it('counts visible body text only (scripts, styles, templates, noscript and the title excluded)', () => {
    const p = read(`<title>Title here</title><body><p>ab  cd</p><script>var x = 1</script><style>p{}</style>
      <template><p>hidden</p></template><noscript>enable js</noscript><p>ef</p></body>`)
    expect(p.textChars).toBe('ab cd'.length + 'ef'.length)
  })
})

describe('URLs', () => {
  it('resolves against the final URL', () => {
    const p = read(`<script src="../lib/x.js"></script><img src="//cdn.example.net/a.png">`)
    expect(p.scripts[0].src).toBe('https://example.com/lib/x.js')
    expect(p.images[0].src).toBe('https://cdn.example.net/a.png')
    expect(p.baseUrl).toBe(URL0)
  })

  it('the first <base href> sets the base of every URL, those before it too', () => {
    const p =
      read(`<link rel=stylesheet href="a.css"><base href="https://static.example.org/v2/"><base href="https://ignored.example/">
      <img src="b.png">`)
    expect(p.baseUrl).toBe('https://static.example.org/v2/')
    expect(p.stylesheets[0].href).toBe('https://static.example.org/v2/a.css')
    expect(p.images[0].src).toBe('https://static.example.org/v2/b.png')
  })

  it('ignores a data: or javascript: base, and a base that does not parse', () => {
    expect(read(`<base href="javascript:alert(1)"><img src="a.png">`).images[0].src).toBe(
      'https://example.com/dir/a.png',
    )
    expect(read(`<base href="data:text/html,x">`).baseUrl).toBe(URL0)
    expect(read(`<base href="http://[bad">`).baseUrl).toBe(URL0)
  })

  it('drops elements whose URL cannot be parsed or is empty (the browser fetches nothing)', () => {
    const p = read(
      `<script src="http://[bad"></script><script src=""></script><img src="  "><link rel=stylesheet href="">`,
    )
    expect(p.scripts).toEqual([])
    expect(p.images).toEqual([])
    expect(p.stylesheets).toEqual([])
  })

  it('decodes entities in attributes', () => {
    expect(read(`<img src="/a.png?x=1&amp;y=2">`).images[0].src).toBe('https://example.com/a.png?x=1&y=2')
  })
})

describe('scripts', () => {
  it('records external and inline scripts with their attributes', () => {
    const p =
      read(`<head><script src="https://cdn.example.net/lib.js" integrity="sha384-abc" crossorigin="anonymous" async></script>
      <script defer src="/d.js"></script><script type="module" src="/m.js"></script><script>console.log("héllo")</script></head>`)
    expect(p.scripts).toEqual([
      expect.objectContaining({
        src: 'https://cdn.example.net/lib.js',
        integrity: 'sha384-abc',
        crossorigin: 'anonymous',
        async: true,
        defer: false,
        module: false,
        inert: false,
        inHead: true,
        inlineBytes: 0,
      }),
      expect.objectContaining({
        src: 'https://example.com/d.js',
        integrity: null,
        defer: true,
        async: false,
      }),
      expect.objectContaining({ src: 'https://example.com/m.js', module: true, inert: false }),
      expect.objectContaining({ src: null, inlineBytes: Buffer.byteLength('console.log("héllo")') }),
    ])
  })

  it('marks non-JavaScript types inert (data blocks, import maps) and JS MIME types as classic', () => {
    const p = read(`<script type="application/ld+json">{"a":1}</script><script type="importmap">{}</script>
      <script type="text/template"><div></div></script><script type="text/javascript">1</script>
      <script type="TEXT/JAVASCRIPT ">2</script><script type="text/javascript; charset=utf-8">3</script><script type="">4</script>`)
    expect(p.scripts.map((s) => s.inert)).toEqual([true, true, true, false, false, true, false])
  })

  it('flags nomodule scripts', () => {
    expect(read(`<script nomodule src="/legacy.js"></script>`).scripts[0].nomodule).toBe(true)
  })

  it('keeps markup inside a script as script text, not elements', () => {
    const p = read(`<script>document.write('<img src="/x.png"><meta http-equiv="a" content="b">')</script>`)
    expect(p.images).toEqual([])
    expect(p.httpEquiv).toEqual([])
    expect(p.scripts).toHaveLength(1)
  })

  it('flags an inline script that inserts content at the top after a timer or a network answer', () => {
    const late = read(
      `<script>addEventListener('load', function () { setTimeout(function () { document.body.insertBefore(d, document.body.firstChild) }, 800) })</script>`,
    )
    expect(late.scripts[0].insertsLate).toBe(true)
    const fetched = read(
      `<script>fetch('/b').then(r => r.text()).then(t => main.insertAdjacentHTML('afterbegin', t))</script>`,
    )
    expect(fetched.scripts[0].insertsLate).toBe(true)
    // at once (before the first paint), or appended at the end: nothing moves
    expect(read(`<script>document.body.prepend(banner)</script>`).scripts[0].insertsLate).toBeUndefined()
    expect(
      read(`<script>setTimeout(() => list.appendChild(li), 500)</script>`).scripts[0].insertsLate,
    ).toBeUndefined()
  })
})

describe('inline styles', () => {
  it("keeps an inline style's @font-face rules for the web fonts the text waits for", () => {
    const p = read(
      `<style>@font-face { font-family: F; src: url("/f.woff2") format("woff2") } body { font-family: F }</style>`,
    )
    expect(p.inlineStyles[0].fontFaceCss).toBe(
      '@font-face { font-family: F; src: url("/f.woff2") format("woff2") }',
    )
    expect(read('<style>body { color: red }</style>').inlineStyles[0].fontFaceCss).toBeUndefined()
  })
})

describe('noscript, template, picture', () => {
  it('reads nothing inside <noscript> but its images, flagged (scripting is on in browsers)', () => {
    const p =
      read(`<head><noscript><link rel=stylesheet href="/ns.css"><meta http-equiv="content-security-policy" content="default-src 'none'"></noscript></head>
      <body><noscript><img src="/pixel.gif"><script src="/never.js"></script></noscript></body>`)
    expect(p.stylesheets).toEqual([])
    expect(p.httpEquiv).toEqual([])
    expect(p.scripts).toEqual([])
    expect(p.images).toEqual([
      expect.objectContaining({ src: 'https://example.com/pixel.gif', inNoscript: true }),
    ])
  })

  it('reads nothing inside <template>, nested ones too', () => {
    const p = read(
      `<template><template></template><img src="/t.png"><script src="/t.js"></script></template><img src="/real.png">`,
    )
    expect(p.images.map((i) => i.src)).toEqual(['https://example.com/real.png'])
    expect(p.scripts).toEqual([])
  })

  it('flags images in <picture> and takes the first srcset candidate when there is no src', () => {
    const p =
      read(`<picture><source srcset="/a.avif" type="image/avif"><img srcset=" /small.jpg 480w, /big.jpg 1080w" sizes="50vw"></picture>
      <img src="/plain.png" loading="LAZY" width="640" height="480px" fetchpriority="high"><img src="/e.png" loading="bogus">`)
    expect(p.images).toEqual([
      expect.objectContaining({
        src: 'https://example.com/small.jpg',
        srcset: ' /small.jpg 480w, /big.jpg 1080w',
        sizes: '50vw',
        inPicture: true,
        loading: null,
      }),
      expect.objectContaining({
        src: 'https://example.com/plain.png',
        inPicture: false,
        loading: 'lazy',
        width: 640,
        height: 480,
        fetchpriority: 'high',
      }),
      expect.objectContaining({ src: 'https://example.com/e.png', loading: null, width: null }),
    ])
  })

  it('keeps data: image URLs as written', () => {
    expect(read(`<img src="data:image/gif;base64,R0lGOD">`).images[0].src).toBe(
      'data:image/gif;base64,R0lGOD',
    )
  })
})

describe('stylesheets, inline styles and hints', () => {
  it('records stylesheets, alternate and disabled ones as not applied', () => {
    const p = read(
      `<link rel="stylesheet" href="/a.css" media="print"><link rel="alternate stylesheet" href="/b.css"><link rel=stylesheet disabled href="/c.css"><link rel="icon" href="/i.png">`,
    )
    expect(p.stylesheets).toEqual([
      {
        href: 'https://example.com/a.css',
        media: 'print',
        integrity: null,
        crossorigin: null,
        disabled: false,
        inHead: true,
      },
      expect.objectContaining({ href: 'https://example.com/b.css', disabled: true }),
      expect.objectContaining({ href: 'https://example.com/c.css', disabled: true }),
    ])
  })

  it('reads inline styles with their leading @imports only', () => {
    const css = `@charset "utf-8"; /* c */ @import url("/x.css"); @import '/y.css' screen; @layer a, b; @import url(z.css);
      body { color: red } @import "/late.css";`
    const p = read(`<style>${css}</style><body><style>p{}</style></body>`)
    expect(p.inlineStyles).toEqual([
      {
        bytes: Buffer.byteLength(css),
        inHead: true,
        imports: ['https://example.com/x.css', 'https://example.com/y.css', 'https://example.com/dir/z.css'],
      },
      { bytes: 3, inHead: false, imports: [] },
    ])
    expect(cssImports('a{} @import "b.css";')).toEqual([])
  })

  it('records each hint rel of a <link>', () => {
    const p = read(
      `<link rel="preload" href="/f.woff2" as="font" type="font/woff2" crossorigin><link rel="preconnect dns-prefetch" href="https://cdn.example.net">`,
    )
    expect(p.hints).toEqual([
      {
        rel: 'preload',
        href: 'https://example.com/f.woff2',
        as: 'font',
        type: 'font/woff2',
        crossorigin: '',
      },
      { rel: 'preconnect', href: 'https://cdn.example.net/', as: null, type: null, crossorigin: null },
      { rel: 'dns-prefetch', href: 'https://cdn.example.net/', as: null, type: null, crossorigin: null },
    ])
  })
})

describe('malformed HTML and the cap', () => {
  it('reads broken markup the tolerant way (unclosed tags, stray quotes, no closing tags at all)', () => {
    const p = read(
      `<html><head><meta http-equiv=content-security-policy content="default-src 'self'"><link rel=stylesheet href=/a.css><title>x</head><body><p>Hi<img src=/a.png alt="broken><script src=/s.js>`,
    )
    expect(p.httpEquiv).toHaveLength(1)
    expect(p.stylesheets).toHaveLength(1)
    expect(p.textChars).toBeGreaterThanOrEqual(0)
  })

  it('reads what it got of a document cut mid-tag and says it was truncated', () => {
    const p = read(`<head><script src="/a.js"></script><img src="/b.png"><img sr`, true)
    expect(p.truncated).toBe(true)
    expect(p.scripts).toHaveLength(1)
    expect(p.images).toHaveLength(1)
    expect(p.bytesParsed).toBe(
      Buffer.byteLength(`<head><script src="/a.js"></script><img src="/b.png"><img sr`),
    )
  })

  it('an empty document is an empty page', () => {
    expect(read('')).toMatchObject({ scripts: [], images: [], httpEquiv: [], textChars: 0, truncated: false })
  })
})

describe('decoding', () => {
  it('takes the charset from Content-Type, then <meta charset>, then UTF-8', () => {
    const latin1 = Buffer.from('<p>caf\xe9</p>', 'latin1')
    expect(decodeHtml(latin1, 'text/html; charset=ISO-8859-1')).toBe('<p>café</p>')
    const meta = Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>caf'), Buffer.from([0xe9])])
    expect(decodeHtml(meta, 'text/html')).toContain('café')
    expect(decodeHtml(Buffer.from('<p>café</p>'), 'text/html; charset=bogus-charset')).toBe('<p>café</p>')
  })

  it('reads only text/html and application/xhtml+xml as pages', () => {
    expect(isHtml('text/html; charset=utf-8')).toBe(true)
    expect(isHtml('application/xhtml+xml')).toBe(true)
    expect(isHtml('application/json')).toBe(false)
    expect(isHtml(null)).toBe(false)
  })
})

describe('what scripts do to the page (for the performance estimate)', () => {
  it('finds the empty container a client-side app renders into, and the text after it', () => {
    const page = read(
      '<body><h1>Shop</h1><div id="app"></div><p>Twelve chars</p><script src="/a.js" defer></script>',
    )
    expect(page.emptyMount).toEqual({ textCharsAfter: 12, sizedImagesAfter: [] })
  })

  it('and the images of known size after it, which move with the text', () => {
    const page = read(
      '<body><img src="/logo.png" width="40" height="40"><div id="root"></div><img src="/hero.png" width="800" height="600"><img src="/x.png">',
    )
    expect(page.emptyMount).toEqual({ textCharsAfter: 0, sizedImagesAfter: [{ width: 800, height: 600 }] })
  })

  it('a container with content, or without an id, is no mount', () => {
    expect(read('<body><div id="app"><p>ready</p></div><p>more</p>').emptyMount).toBeUndefined()
    expect(read('<body><div></div><p>more</p>').emptyMount).toBeUndefined()
  })

  it('reads an inline script that inserts a block on load, its height, and its long loops', () => {
    const page = read(
      "<body><p>x</p><script>addEventListener('load', function () { var d = document.createElement('div'); d.style.height = '300px'; document.body.insertBefore(d, document.body.firstChild) })</script><script>for (var i = 0; i < 8e7; i++) {}</script>",
    )
    expect(page.scripts[0]).toMatchObject({ insertsLate: true, insertPx: 300 })
    expect(page.scripts[1].busyLoopIterations).toBe(8e7)
  })
})
