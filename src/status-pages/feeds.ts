/**
 * The feeds of a status page (docs/status-pages.md): `feed.rss` (RSS 2.0) and `feed.atom` (Atom 1.0), one
 * entry per update of the incidents the page shows (so a reader hears of each), newest first.
 * Built with fast-xml-parser's builder, which escapes every text and attribute; characters XML
 * 1.0 cannot carry are dropped from what the owner typed.
 */
import { XMLBuilder } from 'fast-xml-parser'
import type { PublicStatusIncident } from '../contract/status-pages.js'
import { IMPACT_TEXT, INCIDENT_STATUS_TEXT } from './render-incidents.js'

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true })

/** Characters XML 1.0 forbids (C0 controls but tab, newline and return; U+FFFE, U+FFFF; lone surrogates). */
/* eslint-disable no-control-regex -- these are the characters to drop */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
/* eslint-enable no-control-regex */
const clean = (s: string) => s.replace(NOT_XML, '')

export interface FeedInput {
  /** The page's id (the Atom feed's id). */
  id: string
  title: string
  description: string | null
  /** The page's absolute address. */
  url: string
  /** The feed's own absolute address. */
  self: string
  generated_at: string
  incidents: PublicStatusIncident[]
}

interface Entry {
  id: string
  title: string
  text: string
  at: string
  link: string
}

function entries(f: FeedInput): Entry[] {
  return f.incidents
    .flatMap((i) =>
      i.updates.map((u) => ({
        id: u.id,
        title: clean(`${i.title}: ${INCIDENT_STATUS_TEXT[u.status]}`),
        text: clean(`${u.message}\n\n${IMPACT_TEXT[i.impact]}.`),
        at: u.created_at,
        link: f.url,
      })),
    )
    .sort((a, b) => (a.at < b.at ? 1 : -1))
}

const XML_DECL = { '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' } }

export function rssFeed(f: FeedInput): string {
  const items = entries(f)
  return builder.build({
    ...XML_DECL,
    rss: {
      '@_version': '2.0',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      channel: {
        title: clean(f.title),
        link: f.url,
        description: clean(f.description || `Incidents and updates of ${f.title}`),
        'atom:link': { '@_href': f.self, '@_rel': 'self', '@_type': 'application/rss+xml' },
        lastBuildDate: new Date(items[0]?.at ?? f.generated_at).toUTCString(),
        item: items.map((e) => ({
          title: e.title,
          link: e.link,
          description: e.text,
          guid: { '#text': `urn:uuid:${e.id}`, '@_isPermaLink': 'false' },
          pubDate: new Date(e.at).toUTCString(),
        })),
      },
    },
  }) as string
}

export function atomFeed(f: FeedInput): string {
  const items = entries(f)
  return builder.build({
    ...XML_DECL,
    feed: {
      '@_xmlns': 'http://www.w3.org/2005/Atom',
      id: `urn:uuid:${f.id}`,
      title: clean(f.title),
      ...(f.description ? { subtitle: clean(f.description) } : {}),
      updated: items[0]?.at ?? f.generated_at,
      link: [
        { '@_href': f.url, '@_rel': 'alternate', '@_type': 'text/html' },
        { '@_href': f.self, '@_rel': 'self', '@_type': 'application/atom+xml' },
      ],
      author: { name: clean(f.title) },
      entry: items.map((e) => ({
        id: `urn:uuid:${e.id}`,
        title: e.title,
        updated: e.at,
        published: e.at,
        link: { '@_href': e.link, '@_rel': 'alternate', '@_type': 'text/html' },
        content: { '#text': e.text, '@_type': 'text' },
      })),
    },
  }) as string
}
