/**
 * /docs: a self-contained human reference (no CDN, no script), rendered once from the OpenAPI
 * document so the page and the machine description always agree.
 */
import { DEFAULT_DOC_LIMITS, type DocLimits } from './openapi/index.js'

type Json = Record<string, any>

const esc = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

function resolve(doc: Json, schema: Json): Json {
  if (schema?.$ref) return resolve(doc, doc.components.schemas[String(schema.$ref).split('/').pop()!])
  return schema ?? {}
}

function typeOf(doc: Json, schema: Json): string {
  const name = schema?.$ref ? String(schema.$ref).split('/').pop() : undefined
  const s = resolve(doc, schema)
  if (s.const !== undefined) return `${typeof s.const} = ${JSON.stringify(s.const)}`
  if (s.enum) return `${s.type ?? 'string'}: ${s.enum.map((v: unknown) => JSON.stringify(v)).join(' | ')}`
  if (s.anyOf) return s.anyOf.map((x: Json) => typeOf(doc, x)).join(' or ')
  if (s.type === 'array') return `array of ${typeOf(doc, s.items)}`
  if (s.type === 'object' && name) return name
  const fmt = s.format ? ` (${s.format})` : ''
  const range =
    s.minimum !== undefined && s.maximum !== undefined && s.maximum < 1e9 ? ` ${s.minimum}–${s.maximum}` : ''
  return `${Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? name ?? 'any')}${fmt}${range}`
}

/**
 * A union of objects keyed by a field (a monitor's create body, one shape per type) as one table:
 * each field as the first shape that allows it declares it, the key's values together, required
 * only where every shape requires it.
 */
function merged(doc: Json, union: Json[]): Json {
  const shapes = union.map((x) => resolve(doc, x))
  const properties: Record<string, Json> = {}
  const allowed = (p: Json) => !(p.not && Object.keys(p.not).length === 0)
  for (const shape of shapes)
    for (const [name, prop] of Object.entries<Json>(shape.properties ?? {})) {
      const p = resolve(doc, prop)
      const seen = properties[name]
      if (p.const !== undefined && seen && (seen.const !== undefined || seen.enum))
        properties[name] = { ...seen, const: undefined, enum: [...(seen.enum ?? [seen.const]), p.const] }
      else if (allowed(p) && (!seen || !allowed(seen))) properties[name] = prop
      else properties[name] ??= prop
    }
  const required = shapes
    .map((x) => x.required ?? [])
    .reduce((all: string[], r: string[]) => all.filter((n) => r.includes(n)))
  return { type: 'object', properties, required }
}

function fields(doc: Json, schema: Json, prefix = '', depth = 0): string {
  const one = resolve(doc, schema)
  const s = one.oneOf ? merged(doc, one.oneOf) : one
  if (s.type !== 'object' || !s.properties || depth > 4) return ''
  const required = new Set<string>(s.required ?? [])
  let rows = ''
  for (const [name, prop] of Object.entries<Json>(s.properties)) {
    const p = resolve(doc, prop)
    rows += `<tr><td><code>${esc(prefix + name)}</code></td><td>${esc(typeOf(doc, prop))}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${esc(p.description ?? prop.description ?? '')}</td></tr>`
    const inner = p.type === 'array' ? resolve(doc, p.items) : p
    if (inner.type === 'object' && inner.properties)
      rows += fields(doc, inner, `${prefix}${name}${p.type === 'array' ? '[]' : ''}.`, depth + 1)
  }
  return rows
}

function table(rows: string): string {
  return rows
    ? `<table><tr><th>Field</th><th>Type</th><th>Required</th><th>Notes</th></tr>${rows}</table>`
    : ''
}

/** The examples of a media type (`example` or `examples`), as titled JSON blocks. */
function examplesOf(media: Json | undefined): string {
  if (!media) return ''
  const list: [string, unknown][] =
    media.example !== undefined
      ? [['Example', media.example]]
      : Object.values<Json>(media.examples ?? {}).map((e) => [e.summary ?? 'Example', e.value])
  return list
    .map(
      ([title, value]) =>
        `<p class="ex">${esc(title)}</p><pre><code>${esc(JSON.stringify(value, null, 2))}</code></pre>`,
    )
    .join('')
}

export function renderDocs(doc: Json, limits: DocLimits = DEFAULT_DOC_LIMITS): string {
  let ops = ''
  let toc = ''
  for (const [path, methods] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      const anchor = op.operationId
      toc += `<li><a href="#${esc(anchor)}"><span class="m ${method}">${method.toUpperCase()}</span> ${esc(path)}</a></li>`
      const auth = op.security?.length ? Object.keys(op.security[0])[0] : 'none'
      let body = `<section id="${esc(anchor)}"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>`
      body += `<p><strong>${esc(op.summary)}</strong>. ${esc(op.description ?? '')}</p><p>Auth: <code>${esc(auth === 'apiKey' ? 'Bearer API key' : auth === 'adminToken' ? 'Bearer admin token' : 'none')}</code></p>`
      if (op.parameters?.length) {
        body += '<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th></tr>'
        for (const p of op.parameters)
          body += `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${esc(typeOf(doc, p.schema))}${p.schema.default !== undefined ? ` (default ${esc(p.schema.default)})` : ''}</td><td>${p.required ? 'yes' : 'no'}</td></tr>`
        body += '</table>'
      }
      const reqMedia = op.requestBody?.content?.['application/json']
      if (reqMedia?.schema)
        body += `<h4>Request body</h4>${table(fields(doc, reqMedia.schema))}${examplesOf(reqMedia)}`
      body += '<h4>Responses</h4><ul>'
      for (const [status, r] of Object.entries<Json>(op.responses)) {
        const headers = Object.keys(r.headers ?? {})
          .map((h) => `<code>${esc(h)}</code>`)
          .join(', ')
        const examples = examplesOf(r.content?.['application/json'])
        body += `<li><code>${esc(status)}</code> ${esc(r.description)}${headers ? ` Headers: ${headers}.` : ''}${examples ? `<details><summary>Example${examples.split('class="ex"').length > 2 ? 's' : ''}</summary>${examples}</details>` : ''}</li>`
      }
      body += '</ul>'
      const okSchema = Object.entries<Json>(op.responses).find(([s]) => s.startsWith('2'))?.[1]?.content?.[
        'application/json'
      ]?.schema
      if (okSchema)
        body += `<details><summary>Success body fields</summary>${table(fields(doc, okSchema))}</details>`
      ops += body + '</section>'
    }
  }
  const envelope = table(fields(doc, doc.components.schemas.ErrorEnvelope))
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} reference</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:0 auto;padding:1rem 1.5rem;color:#1b1f24}
code{font:13px ui-monospace,monospace;background:#f3f4f6;padding:0 .25em;border-radius:3px}
table{border-collapse:collapse;margin:.5rem 0;width:100%}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}pre{background:#f6f8fa;padding:.5rem;overflow-x:auto}p.ex{margin:.25rem 0;font-size:13px;color:#57606a}section{border-top:1px solid #d0d7de;padding-top:.5rem;margin-top:1.5rem}
.m{display:inline-block;min-width:3.5em;text-align:center;border-radius:4px;color:#fff;font-size:12px;padding:0 .3em}
.get{background:#1f6feb}.post{background:#1a7f37}ul.toc{list-style:none;padding:0}ul.toc a{text-decoration:none}
</style></head><body>
<h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>
<p>${esc(doc.info.description)}</p>
<p>Machine-readable description: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<h2>Quick start</h2>
<pre><code>curl -s -X POST "$BASE/api/public/v1/checks/run" \\
  -H "Authorization: Bearer $SITEHEALTH_API_KEY" -H "Content-Type: application/json" \\
  -d '{"url":"https://example.com"}'</code></pre>
<h2>Rules and the limits of this server</h2>
<ul><li>Credits: each successful saved check costs 1 credit; invalid or blocked URLs, failed checks and refused requests cost nothing.</li>
<li>Rate limits per key (sliding windows): ${limits.runLimit} run-check requests per ${limits.runWindowSec} s (both run routes share one counter), ${limits.apiLimit} requests per ${limits.apiWindowSec} s for other routes. Every response of a key route past authentication carries <code>RateLimit</code> and <code>RateLimit-Policy</code>; a 429 carries <code>Retry-After</code>.</li>
<li>Failed checks are free, but at most ${limits.failureLimit} per ${limits.failureWindowSec} s per key; past that, runs get 429 <code>rate_limited</code> until the oldest failure leaves the window.</li>
<li>Checks in flight: at most ${limits.maxConcurrentChecks} on this server and ${limits.maxConcurrentChecksPerUser} per user; a run past that waits briefly, then gets 503 <code>server_busy</code> with <code>Retry-After</code>, nothing charged.</li>
<li>When a dependency of the server is down or silent (the database, Redis, a full disk), a request ends within a few seconds with 503 <code>service_unavailable</code> and <code>Retry-After</code>, nothing charged: try again shortly.</li>
<li>Request bodies: JSON, at most 16 KiB; the URL at most 2048 characters; unknown fields are refused (400).</li>
<li>Recent checks come newest first; pass <code>next_cursor</code> as <code>cursor</code> for the next page.</li>
<li>Every response carries <code>X-Request-Id</code>; a 401 carries <code>WWW-Authenticate</code>; a 405 carries <code>Allow</code>.</li></ul>
<h2>Errors</h2><p>Every error has this envelope:</p>${envelope}
<table><tr><th>Status</th><th>Meaning</th></tr>${Object.entries({
    400: 'invalid_url',
    401: 'invalid_api_key, revoked_api_key',
    402: 'insufficient_credits',
    404: 'not_found',
    405: 'method_not_allowed',
    429: 'rate_limited',
    500: 'internal_error',
    502: 'check_failed',
    503: 'server_busy, service_unavailable',
  })
    .map(([s, c]) => `<tr><td>${s}</td><td><code>${c}</code></td></tr>`)
    .join('')}</table>
<h2>Endpoints</h2><ul class="toc">${toc}</ul>${ops}
</body></html>`
}
