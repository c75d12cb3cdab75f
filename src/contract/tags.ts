/**
 * A monitor's tags (docs/monitoring.md#tags): up to 20 strings, `name` or `name:value`, on monitors
 * of every type. Declared once: the create and change bodies, the list filter (`?tag=`), the CLI,
 * the dashboard, the MCP tools and sitehealth.yaml read them here, and so does the matching rule.
 */
import { z } from 'zod'

export const TAG_PATTERN = '^[A-Za-z0-9][\\w.-]{0,39}(:[^\\s,]{1,80})?$'
export const MAX_TAGS = 20
const TAG_RE = new RegExp(TAG_PATTERN)
const TAG_WORDS =
  'a tag is `name` or `name:value`: a name of 1 to 40 letters, digits, `_`, `.` or `-` (starting with a letter or digit), and a value of 1 to 80 characters without spaces or commas'

export const Tag = z
  .string()
  .regex(TAG_RE, { message: TAG_WORDS })
  .meta({
    description: 'A tag: `name` or `name:value` (env:prod, team:payments, critical).',
    examples: ['env:prod'],
  })

export const Tags = z
  .array(Tag)
  .max(MAX_TAGS, { message: `at most ${MAX_TAGS} tags` })
  .meta({
    description: `Up to ${MAX_TAGS} tags, \`name\` or \`name:value\`; kept once each, sorted. List monitors by tag with \`?tag=\`.`,
  })

/** Tags as stored and shown: each once, sorted. */
export const normalizeTags = (tags: readonly string[]): string[] => [...new Set(tags)].sort()

/** Tags typed in one field (a form's, a flag's), split at spaces and commas: no tag holds either. */
export const splitTags = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean)

/** Why `tag` is not a tag, or null. */
export const tagProblem = (tag: string): string | null => (TAG_RE.test(tag) ? null : TAG_WORDS)

/**
 * A monitor's tags match a wanted tag when one is equal to it, or, when the wanted tag is a bare
 * `name`, when one is `name:<any value>` (`?tag=env` finds `env`, `env:prod` and `env:staging`).
 */
export function tagMatches(tags: readonly string[] | undefined, wanted: string): boolean {
  return (tags ?? []).some((t) => t === wanted || (!wanted.includes(':') && t.startsWith(`${wanted}:`)))
}

/** Every wanted tag matches (several `?tag=` narrow the list). */
export const tagsMatch = (tags: readonly string[] | undefined, wanted: readonly string[]): boolean =>
  wanted.every((w) => tagMatches(tags, w))
