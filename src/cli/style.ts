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

/** Set to anything but the empty string (no-color.org), or `0` for the FORCE_COLOR family. */
const isSet = (v: string | undefined) => v !== undefined && v !== ''
const forces = (v: string | undefined) => isSet(v) && v !== '0' && v !== 'false'

/** True when NO_COLOR is set to anything but the empty string (no-color.org), or TERM=dumb. */
export function colourForbidden(env: NodeJS.ProcessEnv): boolean {
  return isSet(env.NO_COLOR) || env.TERM === 'dumb'
}

/** FORCE_COLOR (Node, chalk) or CLICOLOR_FORCE (bixense.com/clicolors): colour even into a pipe. */
export function colourForced(env: NodeJS.ProcessEnv): boolean {
  return forces(env.FORCE_COLOR) || forces(env.CLICOLOR_FORCE)
}

export interface OutputMode {
  /** Colour on stdout. */
  colour: boolean
  /** An animated spinner on stderr while waiting on the network. */
  spinner: boolean
  /** stderr is a terminal: progress lines go there (also with --json or a redirected stdout). */
  progress?: boolean
  /** stdout is a terminal: fitted tables; otherwise tab-separated columns (gh's convention). */
  tty?: boolean
  /** Columns to wrap and fit to; undefined: do not wrap (a pipe without COLUMNS). */
  width?: number
}

/** COLUMNS when it is a positive integer, else the terminal's own width when stdout is one. */
export function outputWidth(env: NodeJS.ProcessEnv, stdout: { isTTY?: boolean; columns?: number }) {
  const fromEnv = Number(env.COLUMNS)
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv
  if (stdout.isTTY && stdout.columns && stdout.columns > 0) return stdout.columns
  return undefined
}

/**
 * Colour: `--no-color` first, then FORCE_COLOR / CLICOLOR_FORCE, then NO_COLOR and TERM=dumb,
 * then "is stdout a terminal". Node gives FORCE_COLOR precedence over NO_COLOR; a flag typed on
 * the command line beats both. `--json` output is for programs: never colour in it.
 * The spinner and progress need only stderr to be a terminal: `check --file x --json > out.json`
 * still shows what it is doing.
 */
export function outputMode(o: {
  stdoutIsTTY: boolean
  stderrIsTTY: boolean
  env: NodeJS.ProcessEnv
  json?: boolean
  noColor?: boolean
  width?: number
}): OutputMode {
  const colour = o.noColor ? false : colourForced(o.env) ? true : o.stdoutIsTTY && !colourForbidden(o.env)
  const progress = o.stderrIsTTY && o.env.TERM !== 'dumb'
  return {
    colour: colour && !o.json,
    spinner: progress,
    progress,
    tty: o.stdoutIsTTY,
    width: o.width,
  }
}
