/** Tags (src/contract/tags.ts): the pattern, the order they are kept in, and the matching rule of `?tag=`. */
import { describe, expect, it } from 'vitest'
import { Tags, normalizeTags, splitTags, tagMatches, tagProblem, tagsMatch } from '../../src/contract/tags.js'

describe('tags', () => {
  it('takes name and name:value, and refuses the rest', () => {
    for (const t of [
      'env',
      'env:prod',
      'team.web-1_x',
      'a:b:c',
      `${'n'.repeat(40)}:${'v'.repeat(80)}`,
      'url:https://x/y',
    ])
      expect(tagProblem(t), t).toBeNull()
    for (const t of [
      '',
      '-env',
      'env:',
      'has space',
      'a,b',
      'env:a b',
      `${'n'.repeat(41)}`,
      `env:${'v'.repeat(81)}`,
      'é',
    ])
      expect(tagProblem(t), t).not.toBeNull()
    expect(Tags.safeParse(Array.from({ length: 20 }, (_, i) => `t${i}`)).success).toBe(true)
    expect(Tags.safeParse(Array.from({ length: 21 }, (_, i) => `t${i}`)).success).toBe(false)
  })

  it('keeps each once, sorted, and splits a typed field at spaces and commas', () => {
    expect(normalizeTags(['team:web', 'env:prod', 'team:web'])).toEqual(['env:prod', 'team:web'])
    expect(splitTags(' env:prod,team:web  critical ,')).toEqual(['env:prod', 'team:web', 'critical'])
  })

  it('matches an equal tag, or a bare name with any value of it', () => {
    const tags = ['env:prod', 'critical']
    expect(tagMatches(tags, 'env:prod')).toBe(true)
    expect(tagMatches(tags, 'env')).toBe(true)
    expect(tagMatches(tags, 'env:staging')).toBe(false)
    expect(tagMatches(tags, 'critical')).toBe(true)
    expect(tagMatches(tags, 'critical:yes')).toBe(false)
    expect(tagMatches(['environment:prod'], 'env')).toBe(false)
    expect(tagMatches(undefined, 'env')).toBe(false)
    expect(tagsMatch(tags, ['env', 'critical'])).toBe(true)
    expect(tagsMatch(tags, ['env', 'team'])).toBe(false)
    expect(tagsMatch(undefined, [])).toBe(true)
  })
})
