import { describe, expect, it } from 'vitest'
import { colourForbidden, makeStyle, outputMode } from '../../src/cli/style.js'

describe('output mode', () => {
  const tty = { stdoutIsTTY: true, stderrIsTTY: true }
  it('colours and spins on a terminal', () => {
    expect(outputMode({ ...tty, env: {} })).toEqual({ colour: true, spinner: true })
  })
  it('is plain when stdout is not a TTY', () => {
    expect(outputMode({ stdoutIsTTY: false, stderrIsTTY: true, env: {} })).toEqual({
      colour: false,
      spinner: false,
    })
  })
  it('spins only when stderr is a TTY too', () => {
    expect(outputMode({ stdoutIsTTY: true, stderrIsTTY: false, env: {} })).toEqual({
      colour: true,
      spinner: false,
    })
  })
  it('honours NO_COLOR (any non-empty value) and TERM=dumb', () => {
    expect(outputMode({ ...tty, env: { NO_COLOR: '1' } })).toEqual({ colour: false, spinner: false })
    expect(outputMode({ ...tty, env: { TERM: 'dumb' } })).toEqual({ colour: false, spinner: false })
    expect(colourForbidden({ NO_COLOR: '' })).toBe(false)
  })
  it('never colours --json', () => {
    expect(outputMode({ ...tty, env: {}, json: true }).colour).toBe(false)
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
