import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { Terminal } from '../../src/cli/terminal.js'

function capture() {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (d) => (out += d))
  stderr.on('data', (d) => (err += d))
  return { streams: { stdout, stderr }, out: () => out, err: () => err }
}

describe('Terminal', () => {
  it('without a spinner, waiting writes nothing and the work still runs', async () => {
    const c = capture()
    const t = new Terminal({ colour: false, spinner: false }, c.streams)
    expect(await t.spin('Checking…', async () => 42)).toBe(42)
    t.notice('Rate limited; waiting 3 s…')
    t.out('result')
    expect(c.err()).toBe('Rate limited; waiting 3 s…\n')
    expect(c.out()).toBe('result\n')
  })

  it('with a spinner, draws on stderr only and clears it; stdout stays clean', async () => {
    const c = capture()
    const t = new Terminal({ colour: true, spinner: true }, c.streams)
    await t.spin('Checking https://example.com…', async () => {
      await new Promise((r) => setTimeout(r, 150))
      t.notice('Rate limited; waiting 1 s…')
    })
    expect(c.err()).toContain('Checking https://example.com…')
    expect(c.err()).toContain('Rate limited; waiting 1 s…\n')
    expect(c.out()).toBe('')
  })

  it('no spinner on a terminal that reports 0 columns (ora would loop forever clearing lines)', async () => {
    const c = capture()
    Object.assign(c.streams.stderr, { columns: 0, isTTY: true })
    const t = new Terminal({ colour: true, spinner: true }, c.streams)
    expect(await t.spin('Checking…', async () => 7)).toBe(7)
    expect(c.err()).toBe('')
  }, 5000)

  it('prints JSON as given, pretty, with one trailing newline', () => {
    const c = capture()
    new Terminal({ colour: true, spinner: false }, c.streams).json({ ok: true, n: [1] })
    expect(JSON.parse(c.out())).toEqual({ ok: true, n: [1] })
    expect(c.out().endsWith('}\n')).toBe(true)
    expect(c.out()).not.toContain('\x1b')
  })
})
