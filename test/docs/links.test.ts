/**
 * Every relative link of the README and `docs/` resolves: the file exists and, when the link names
 * an anchor, the target page has a heading (GitHub's slug) or an element with that id. Source
 * comments that cite `docs/<page>.md#<anchor>` are held to the same rule, and none cites the
 * design document or a section of the API specification (`spec §N`), neither in the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

function walk(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return walk(path, keep)
    return keep(path) ? [path] : []
  })
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens (github-slugger). */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** Markdown without fenced code blocks and inline code spans (links there are not links). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '')
}

const anchorCache = new Map<string, Set<string>>()
function anchorsOf(file: string): Set<string> {
  const cached = anchorCache.get(file)
  if (cached) return cached
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, heading] of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*$/gm)) {
    const base = slug(heading!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  for (const [, id] of text.matchAll(/\b(?:id|name)="([^"]+)"/g)) anchors.add(id!)
  anchorCache.set(file, anchors)
  return anchors
}

/** The problem with one link from `from`, or null when it resolves. */
function checkLink(from: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null // http:, mailto:
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined]
  const file = pathPart === '' ? from : resolve(dirname(from), decodeURIComponent(pathPart))
  if (!existsSync(file)) return `${target}: ${relative(root, file)} does not exist`
  if (anchor === undefined || anchor === '') return null
  if (!file.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`
  return anchorsOf(file).has(decodeURIComponent(anchor))
    ? null
    : `${target}: no heading or id "${anchor}" in ${relative(root, file)}`
}

function linksOf(markdown: string): string[] {
  const text = prose(markdown)
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!)
  const reference = [...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!)
  const html = [...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!)
  return [...inline, ...reference, ...html]
}

const pages = [
  join(root, 'README.md'),
  ...walk(join(root, 'docs'), (p) => p.endsWith('.md')),
  ...walk(join(root, 'bench'), (p) => p.endsWith('.md')),
]

describe('documentation links', () => {
  it('finds the README and the docs pages', () => {
    expect(pages.map((p) => relative(root, p))).toEqual(
      expect.arrayContaining(['README.md', 'docs/decisions.md', 'docs/commands.md']),
    )
  })

  it.each(pages.map((p) => [relative(root, p), p]))('every relative link of %s resolves', (_, page) => {
    const problems = linksOf(readFileSync(page, 'utf8'))
      .map((target) => checkLink(page, target))
      .filter((p): p is string => p !== null)
    expect(problems).toEqual([])
  })

  const sources = [
    ...walk(join(root, 'src'), (p) => /\.(ts|tsx|js)$/.test(p)),
    ...walk(join(root, 'test'), (p) => /\.(ts|js)$/.test(p) && !p.includes('/fixtures/')),
    ...walk(join(root, 'bench'), (p) => p.endsWith('.js')),
  ]

  it('source comments citing docs/<page>.md#<anchor> resolve', () => {
    const problems: string[] = []
    for (const file of sources) {
      const text = readFileSync(file, 'utf8')
      for (const [, page, anchor] of text.matchAll(/\bdocs\/([\w./-]+\.md)(?:#([\w-]+))?/g)) {
        const problem = checkLink(join(root, 'README.md'), `docs/${page}${anchor ? `#${anchor}` : ''}`)
        if (problem) problems.push(`${relative(root, file)}: ${problem}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('no source cites the design document that is not in the repository', () => {
    const citing = sources.filter((file) => /DESIGN(\.md)?\s*§/.test(readFileSync(file, 'utf8')))
    expect(citing.map((f) => relative(root, f))).toEqual([])
  })

  it('no source or page cites a section of the API specification that is not in the repository', () => {
    // "spec §4", "spec/public-api.md §2": cite docs/api.md, docs/decisions.md… instead
    const citing = [...sources, ...pages]
      .filter((file) => file !== import.meta.filename)
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/\b(?:spec|public-api\.md)\s*§\s*\d[\d.]*/g)].map(
          (m) => `${relative(root, file)}: ${m[0]}`,
        ),
      )
    expect(citing).toEqual([])
  })
})

describe('slug', () => {
  it('follows GitHub: punctuation dropped, spaces to hyphens, underscores and accents kept', () => {
    expect(slug('Scale out (PostgreSQL)')).toBe('scale-out-postgresql')
    expect(slug('Server settings (`sitehealth serve`)')).toBe('server-settings-sitehealth-serve')
    expect(slug('Admin: keys, credits and users; login')).toBe('admin-keys-credits-and-users-login')
    expect(slug('security_headers, finding by finding')).toBe('security_headers-finding-by-finding')
    expect(slug('[`sitehealth check`](x.md) — ok')).toBe('sitehealth-check--ok')
  })
})
