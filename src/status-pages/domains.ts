/**
 * Custom domains of status pages (docs/status-pages.md): a request whose `Host` is a page's `domain`
 * gets that page at `/`, and its JSON, feeds, Statuspage JSON, badges and subscription routes
 * under the same paths as below `/status/{slug}`. Done on node:http before routing, by rewriting
 * the path: `/` → `/status/{slug}`, `/{slug}.json` and `/{slug}/…` (the page's own relative
 * links) → `/status/…`, any other `/x` → `/status/{slug}/x`. Nothing else of the server (API,
 * dashboard) answers on a page's domain. Hosts that are no page's domain pass unchanged.
 *
 * Which host is whose is cached per host for up to 30 s (unknown hosts too, at most 1000), and
 * dropped at once when this process writes a page; another instance's change shows within 30 s.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { DOMAIN_PATTERN } from '../contract/status-pages.js'
import type { StatusPageStore } from '../store/status-pages.js'

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown

const TTL_MS = 30_000
const MAX_HOSTS = 1000

/** The host name of a Host header: lowercase, no port, no trailing dot. */
export function hostName(header: string | undefined): string {
  return (header ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')
}

/** The path a request on a page's domain stands for. */
export function domainPath(slug: string, pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?')
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q)
  const query = q < 0 ? '' : pathAndQuery.slice(q)
  if (path === '/' || path === '') return `/status/${slug}${query}`
  if (path === `/${slug}.json` || path.startsWith(`/${slug}/`)) return `/status${path}${query}`
  return `/status/${slug}${path}${query}`
}

export class PageDomains {
  private readonly hosts = new Map<string, { slug: string | null; expires: number }>()
  private seenWrites: number | undefined
  private own: { url: string | undefined; host: string | undefined } = { url: undefined, host: undefined }

  private ownHost(): string | undefined {
    const url = this.publicUrl()
    if (url !== this.own.url) {
      let host: string | undefined
      try {
        host = url ? new URL(url).hostname.toLowerCase() : undefined
      } catch {
        host = undefined
      }
      this.own = { url, host }
    }
    return this.own.host
  }

  constructor(
    private readonly pages: StatusPageStore,
    /** This process's writes (store/writes.ts): a change drops every cached answer. */
    private readonly writes: () => number,
    /** The server's public URL: its host is never looked up. */
    private readonly publicUrl: () => string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The slug of the page whose domain `host` is, or null; a value when cached, else a promise. */
  slugFor(host: string): string | null | Promise<string | null> {
    if (!DOMAIN_PATTERN.test(host) || host === this.ownHost()) return null
    const w = this.writes()
    if (w !== this.seenWrites) {
      this.hosts.clear()
      this.seenWrites = w
    }
    const hit = this.hosts.get(host)
    if (hit && hit.expires > this.now()) return hit.slug
    return this.pages.getStatusPageByDomain(host).then((page) => {
      const slug = page?.slug ?? null
      this.hosts.delete(host)
      if (this.hosts.size >= MAX_HOSTS) this.hosts.delete(this.hosts.keys().next().value!)
      this.hosts.set(host, { slug, expires: this.now() + TTL_MS })
      return slug
    })
  }
}

/** Wraps the server's handler: requests on a page's domain are rewritten to that page's paths. */
export function withPageDomains(domains: PageDomains, next: NodeHandler): NodeHandler {
  const go = (req: IncomingMessage, res: ServerResponse, slug: string | null) => {
    if (slug) req.url = domainPath(slug, req.url ?? '/')
    return next(req, res)
  }
  return (req, res) => {
    const found = domains.slugFor(hostName(req.headers.host))
    if (found === null || typeof found === 'string') return go(req, res, found)
    return found.then(
      (slug) => go(req, res, slug),
      // a store that cannot answer: the request goes on as if on no page's domain
      () => go(req, res, null),
    )
  }
}
