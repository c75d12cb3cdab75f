/**
 * The typo answer (issue 21): the nearest user command with the arguments as typed, never an
 * admin command unless its topic was typed, nothing when no command is near.
 */
import { describe, expect, it } from 'vitest'
import { editDistance, suggestCommand, typedLine, type CommandInfo } from '../../src/cli/command-not-found.js'

const cmd = (id: string, admin = false): CommandInfo => ({ words: id.split(' '), admin })
const commands = [
  cmd('check'),
  cmd('recent'),
  cmd('get'),
  cmd('credits'),
  cmd('credits grant', true),
  cmd('keys create', true),
  cmd('keys list', true),
  cmd('monitors list'),
  cmd('monitors create'),
  cmd('config set'),
]

describe('suggestCommand', () => {
  it('keeps a URL argument whole (its colon is no topic separator)', () => {
    expect(suggestCommand(['chek', 'https://example.com'], commands)?.line).toBe('check https://example.com')
  })

  it('keeps flags and quotes what a shell would split', () => {
    expect(suggestCommand(['chek', '127.0.0.1:8000', '--fail-under', '80'], commands)?.line).toBe(
      'check 127.0.0.1:8000 --fail-under 80',
    )
    expect(suggestCommand(['chekc', 'a b', "it's"], commands)?.line).toBe(`check 'a b' 'it'\\''s'`)
  })

  it('mends either word of a topic command', () => {
    expect(suggestCommand(['monitor', 'list'], commands)?.line).toBe('monitors list')
    expect(suggestCommand(['monitors', 'lst', '--json'], commands)?.line).toBe('monitors list --json')
    expect(suggestCommand(['confg', 'set', 'api-url', 'http://x'], commands)?.line).toBe(
      'config set api-url http://x',
    )
  })

  it('never offers an admin command unless its topic was typed', () => {
    // oclif's plugin offered `credits grant` for this line
    expect(suggestCommand(['chek', 'https://example.com'], commands)?.words).toEqual(['check'])
    expect(suggestCommand(['kes', 'list'], commands)?.words[0]).not.toBe('keys')
    expect(suggestCommand(['keys', 'lst'], commands)?.line).toBe('keys list')
  })

  it('suggests nothing for a word that is no slip of any command', () => {
    expect(suggestCommand(['xyzzy', 'foo'], commands)).toBeUndefined()
    expect(suggestCommand(['--json'], commands)).toBeUndefined()
  })
})

describe('typedLine', () => {
  it('prefers the process arguments, which a URL colon cannot split', () => {
    expect(typedLine('chek:https://example.com', [], ['chek', 'https://example.com'])).toEqual([
      'chek',
      'https://example.com',
    ])
    expect(typedLine('chek', ['x'], ['other'])).toEqual(['chek', 'x'])
  })
})

describe('editDistance', () => {
  it('counts a swap of neighbours as one slip', () => {
    expect(editDistance('chekc', 'check')).toBe(1)
    expect(editDistance('chek', 'check')).toBe(1)
    expect(editDistance('', 'abc')).toBe(3)
  })
})
