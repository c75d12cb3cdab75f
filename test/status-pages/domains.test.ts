/**
 * Custom domains (docs/status-pages.md): which path a request on a page's domain stands for, the Host
 * header's name, and the per-host cache (unknown hosts cached too, dropped when a page is written).
 */
import { describe, expect, it } from 'vitest'
import { PageDomains, domainPath, hostName } from '../../src/status-pages/index.js'
import type { StatusPageStore } from '../../src/store/status-pages.js'

describe('custom domains', () => {
  it('maps the domain root, the page relative links and sub-paths to the page paths', () => {
    expect(domainPath('acme', '/')).toBe('/status/acme')
    expect(domainPath('acme', '/?x=1')).toBe('/status/acme?x=1')
    expect(domainPath('acme', '/acme.json')).toBe('/status/acme.json')
    expect(domainPath('acme', '/acme/feed.rss')).toBe('/status/acme/feed.rss')
    expect(domainPath('acme', '/feed.atom')).toBe('/status/acme/feed.atom')
    expect(domainPath('acme', '/api/v2/summary.json')).toBe('/status/acme/api/v2/summary.json')
    expect(domainPath('acme', '/subscribers/confirm?token=a.b')).toBe(
      '/status/acme/subscribers/confirm?token=a.b',
    )
    expect(domainPath('acme', '/api/public/v1/monitors')).toBe('/status/acme/api/public/v1/monitors')
  })

  it('reads the host name without port or trailing dot', () => {
    expect(hostName('Status.Acme.Example:8443')).toBe('status.acme.example')
    expect(hostName('status.acme.example.')).toBe('status.acme.example')
    expect(hostName(undefined)).toBe('')
  })

  it('looks a host up once per TTL, never the server own host or an address, again after a write', async () => {
    let lookups = 0
    let writes = 0
    const pages = {
      getStatusPageByDomain: async (d: string) => {
        lookups++
        return d === 'status.acme.example' ? { slug: 'acme' } : undefined
      },
    } as unknown as StatusPageStore
    const d = new PageDomains(
      pages,
      () => writes,
      () => 'https://sitehealth.example.com',
    )
    expect(await d.slugFor('status.acme.example')).toBe('acme')
    expect(d.slugFor('status.acme.example')).toBe('acme')
    expect(await d.slugFor('other.example')).toBeNull()
    expect(d.slugFor('other.example')).toBeNull()
    expect(d.slugFor('sitehealth.example.com')).toBeNull()
    expect(d.slugFor('127.0.0.1')).toBeNull()
    expect(d.slugFor('localhost')).toBeNull()
    expect(lookups).toBe(2)
    writes++
    expect(await d.slugFor('status.acme.example')).toBe('acme')
    expect(lookups).toBe(3)
  })
})
