/**
 * Running the built CLI as a user would, for every end-to-end suite that spawns it: a private HOME
 * and XDG dirs (so the config file is the test's own), only the environment the test gives (no
 * SITEHEALTH_* or NO_COLOR leaks in from the developer's shell), and either plain pipes or a
 * pseudo-terminal of a fixed size (util-linux `script`, part of every Debian: node-pty would need
 * an install script, which npm 11 does not run). Plus the assertions those suites share.
 */
import { execa } from 'execa'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { expect } from 'vitest'
import { CLI } from './serve.js'

export type Env = Record<string, string | undefined>
export interface Run {
  code: number
  stdout: string
  stderr: string
}

export const ESC = '\x1b'
/** ora's spinners draw with braille dots (and a few other glyph sets). */
export const SPINNER_FRAMES = /[\u2800-\u28ff◐◓◑◒⣾⣽⣻⢿⡿⣟⣯⣷]/

export function cliRunner(home: () => string) {
  const baseEnv = (extra: Env = {}): Env => ({
    PATH: process.env.PATH,
    HOME: home(),
    XDG_CONFIG_HOME: join(home(), 'config'),
    XDG_DATA_HOME: join(home(), 'data'),
    XDG_CACHE_HOME: join(home(), 'cache'),
    ...extra,
  })

  /** stdout and stderr are pipes. */
  async function cli(args: string[], o: { env?: Env; input?: string; timeout?: number } = {}): Promise<Run> {
    const r = await execa(process.execPath, [CLI, ...args], {
      env: baseEnv(o.env),
      extendEnv: false,
      reject: false,
      input: o.input ?? '',
      timeout: o.timeout ?? 90_000,
    })
    return { code: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr }
  }

  /**
   * A shell command line run in a pseudo-terminal `columns` wide; `$SH` in it is the CLI. Returns
   * what the terminal showed (stdout and stderr together, CRLF turned into LF) and the exit code.
   */
  async function tty(
    command: string,
    o: { columns: number; env?: Env; timeout?: number; input?: string },
  ): Promise<{ code: number; screen: string }> {
    const sh = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)}`
    const r = await execa(
      'script',
      ['-qec', `stty cols ${o.columns} rows 200; ${command.replaceAll('$SH', sh)}`, '/dev/null'],
      {
        env: baseEnv({ TERM: 'xterm-256color', ...o.env }),
        extendEnv: false,
        reject: false,
        input: '',
        timeout: o.timeout ?? 90_000,
      },
    )
    return { code: r.exitCode ?? -1, screen: r.stdout.replace(/\r\n/g, '\n') }
  }

  return { cli, tty, baseEnv }
}

/** What a terminal shows, without colours, cursor moves and spinner frames. */
export function visible(screen: string): string {
  return (
    screen
      // "cursor to column 1" (the spinner redrawing its line) is a carriage return
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[1?G/g, '\r')
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
      .split('\n')
      .map((l) => l.split('\r').at(-1) ?? '')
      .join('\n')
  )
}

/** A failure for people: exactly one line on stderr, nothing on stdout, no stack trace. */
export function expectOneLineError(r: Run, code: number, pattern?: RegExp) {
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(code)
  expect(r.stdout).toBe('')
  expect(r.stderr.split('\n')).toHaveLength(1)
  expect(r.stderr).toMatch(/^Error: /)
  expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/)
  if (pattern) expect(r.stderr).toMatch(pattern)
}

/** Output for pipes: no escape codes and no spinner frames on either stream. */
export function expectPlain(r: Run) {
  expect(r.stdout).not.toContain(ESC)
  expect(r.stderr).not.toContain(ESC)
  expect(r.stdout).not.toMatch(SPINNER_FRAMES)
  expect(r.stderr).not.toMatch(SPINNER_FRAMES)
}

/** A failure for scripts: the error envelope alone on stdout. */
export function expectEnvelope(r: Run, exit: number, code: string) {
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(exit)
  const body = JSON.parse(r.stdout)
  expect(body.ok).toBe(false)
  expect(body.error.code).toBe(code)
  expect(body.error.message).toEqual(expect.any(String))
  return body
}

/** The URL of a loopback port nothing listens on (taken, then released). */
export async function closedPortUrl(): Promise<string> {
  // below the kernel's ephemeral range (32768 and up on Linux), so a server of a parallel test
  // that listens on port 0 is never given it: a freed ephemeral port was, and the "dead" URL answered
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000)
    const s = createServer()
    const free = await new Promise<boolean>((r) => {
      s.once('error', () => r(false))
      s.listen(port, '127.0.0.1', () => r(true))
    })
    if (!free) continue
    await new Promise<void>((r) => s.close(() => r()))
    return `http://127.0.0.1:${port}`
  }
}
