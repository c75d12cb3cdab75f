import { describe, expect, it } from 'vitest'
import { colourForbidden, makeStyle, outputMode, outputWidth } from '../../src/cli/style.js'

describe('output mode', () => {
  const tty = { stdoutIsTTY: true, stderrIsTTY: true }
  const mode = (o: Parameters<typeof outputMode>[0]) => {
    const m = outputMode(o)
    return { colour: m.colour, spinner: m.spinner }
  }
  it('colours and spins on a terminal', () => {
    expect(mode({ ...tty, env: {} })).toEqual({ colour: true, spinner: true })
  })
  it('no colour when stdout is not a TTY, but progress on stderr when stderr is one', () => {
    expect(mode({ stdoutIsTTY: false, stderrIsTTY: true, env: {} })).toEqual({ colour: false, spinner: true })
    expect(outputMode({ stdoutIsTTY: false, stderrIsTTY: true, env: {} }).tty).toBe(false)
  })
  it('spins only when stderr is a TTY', () => {
    expect(mode({ stdoutIsTTY: true, stderrIsTTY: false, env: {} })).toEqual({ colour: true, spinner: false })
  })
  it('honours NO_COLOR (any non-empty value) and TERM=dumb', () => {
    expect(mode({ ...tty, env: { NO_COLOR: '1' } }).colour).toBe(false)
    expect(mode({ ...tty, env: { TERM: 'dumb' } })).toEqual({ colour: false, spinner: false })
    expect(colourForbidden({ NO_COLOR: '' })).toBe(false)
  })
  it('FORCE_COLOR and CLICOLOR_FORCE colour a pipe, and beat NO_COLOR; 0 does not force', () => {
    const pipe = { stdoutIsTTY: false, stderrIsTTY: false }
    expect(mode({ ...pipe, env: { FORCE_COLOR: '1' } }).colour).toBe(true)
    expect(mode({ ...pipe, env: { CLICOLOR_FORCE: '1' } }).colour).toBe(true)
    expect(mode({ ...pipe, env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).colour).toBe(true)
    expect(mode({ ...pipe, env: { FORCE_COLOR: '0' } }).colour).toBe(false)
  })
  it('--no-color beats everything', () => {
    expect(mode({ ...tty, env: { FORCE_COLOR: '1' }, noColor: true }).colour).toBe(false)
  })
  it('never colours --json', () => {
    expect(outputMode({ ...tty, env: { FORCE_COLOR: '1' }, json: true }).colour).toBe(false)
  })
  it('width: COLUMNS first, then the terminal, else none (a pipe is not wrapped)', () => {
    expect(outputWidth({ COLUMNS: '72' }, { isTTY: true, columns: 120 })).toBe(72)
    expect(outputWidth({}, { isTTY: true, columns: 120 })).toBe(120)
    expect(outputWidth({ COLUMNS: 'wide' }, { isTTY: false })).toBeUndefined()
    expect(outputWidth({ COLUMNS: '0' }, {})).toBeUndefined()
  })
})

describe('style', () => {
  it('returns text untouched when disabled', () => {
    const s = makeStyle(false)
    for (const paint of [s.bold, s.dim, s.red, s.green, s.yellow, s.cyan]) expect(paint('x')).toBe('x')
  })
  it('wraps text in SGR codes when enabled', () => {
    expect(makeStyle(true).red('x')).toBe('\x1b[31mx\x1b[39m')
  })
})
