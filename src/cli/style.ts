/**
 * Colour for people, nothing for machines: every styled string goes through a `Style`, and a
 * disabled one returns its input untouched, so plain output cannot contain an escape code.
 */
export type Paint = (text: string) => string

export interface Style {
  enabled: boolean
  bold: Paint
  dim: Paint
  red: Paint
  green: Paint
  yellow: Paint
  cyan: Paint
}

const sgr =
  (open: number, close: number): Paint =>
  (text) =>
    `\x1b[${open}m${text}\x1b[${close}m`
const plain: Paint = (text) => text

export function makeStyle(enabled: boolean): Style {
  if (!enabled)
    return { enabled, bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain }
  return {
    enabled,
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
  }
}

/** True when NO_COLOR is set to anything but the empty string (no-color.org), or TERM=dumb. */
export function colourForbidden(env: NodeJS.ProcessEnv): boolean {
  return (env.NO_COLOR !== undefined && env.NO_COLOR !== '') || env.TERM === 'dumb'
}

export interface OutputMode {
  /** Colour on stdout. */
  colour: boolean
  /** An animated spinner on stderr while waiting on the network. */
  spinner: boolean
}

/**
 * Colour only when stdout is a terminal and colour is not forbidden; the spinner additionally
 * needs stderr to be a terminal. `--json` output is for programs: no colour in it.
 */
export function outputMode(o: {
  stdoutIsTTY: boolean
  stderrIsTTY: boolean
  env: NodeJS.ProcessEnv
  json?: boolean
}): OutputMode {
  const interactive = o.stdoutIsTTY && !colourForbidden(o.env)
  return { colour: interactive && !o.json, spinner: interactive && o.stderrIsTTY }
}
