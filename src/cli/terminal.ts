/**
 * The command's two streams, with the spinner and progress notices. Commands and renderers never
 * touch process.stdout/stderr or ora directly: one place decides what a terminal gets.
 */
import type { Ora } from 'ora'
import type { View } from './render/view.js'
import { makeStyle, type OutputMode, type Style } from './style.js'

export interface Streams {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
}

export class Terminal {
  readonly style: Style
  /** What renderers get: colours, terminal or pipe, width. */
  readonly view: View
  private spinner?: Ora

  constructor(
    readonly mode: OutputMode,
    private readonly streams: Streams = { stdout: process.stdout, stderr: process.stderr },
  ) {
    this.style = makeStyle(mode.colour)
    this.view = { style: this.style, tty: mode.tty ?? true, width: mode.width }
  }

  /** A progress line on stderr, only when stderr is a terminal (a person is watching). */
  progress(line: string): void {
    if (this.mode.progress) this.notice(line)
  }

  /** Write `text` and a newline on stdout. */
  out(text: string): void {
    this.streams.stdout.write(`${text}\n`)
  }

  /** A line on stderr that does not tear an active spinner. */
  notice(line: string): void {
    const spinner = this.spinner
    if (spinner?.isSpinning) spinner.clear()
    this.streams.stderr.write(`${line}\n`)
    if (spinner?.isSpinning) spinner.render()
  }

  /** Stop a running spinner for good (the command is ending early: Ctrl-C). */
  halt(): void {
    this.spinner?.stop()
    this.spinner = undefined
  }

  json(value: unknown): void {
    this.streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
  }

  /** Run `work` with a spinner showing `text` on stderr when the mode allows one. */
  async spin<T>(text: string, work: () => Promise<T>): Promise<T> {
    // a terminal that reports 0 columns (`script`, some CI ptys) sends ora's line clearing into
    // an endless loop: no spinner there
    const columns = (this.streams.stderr as { columns?: number }).columns
    if (!this.mode.spinner || columns === 0) return work()
    const { default: ora } = await import('ora')
    // discardStdin: false, or `check --file -` would lose its input to ora's stdin handling
    const spinner = ora({
      text,
      stream: this.streams.stderr,
      discardStdin: false,
      isEnabled: true,
      color: this.mode.colour ? 'cyan' : false,
    }).start()
    this.spinner = spinner
    try {
      return await work()
    } finally {
      spinner.stop()
      this.spinner = undefined
    }
  }
}
