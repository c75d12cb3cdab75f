/**
 * Running the built CLI as a user would, for the end-to-end CLI suites: a private HOME and XDG
 * dirs (so the config file is the test's own), only the environment the test gives, and either
 * plain pipes or a pseudo-terminal of a fixed size (util-linux `script`, part of every Debian:
 * node-pty would need an install script, which npm 11 does not run).
 */
import { execa } from 'execa'
import { join } from 'node:path'
import { expect } from 'vitest'
import { CLI } from '../helpers/serve.js'

export type Env = Record<string, string | undefined>
export interface Run {
  code: number
  stdout: string
  stderr: string
}

export const ESC = '\x1b'

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
