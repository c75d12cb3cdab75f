/**
 * oclif's `command_not_found` hook (it replaces @oclif/plugin-not-found): a typo such as
 * `sitehealth chek https://example.com` is answered with the nearest command a user runs, with the
 * arguments as typed, on one line and exit 127, the same on a terminal and in a pipe. It never
 * prompts: a "Yes" default that runs something else (oclif's plugin offered `credits grant`
 * for the line above, since the URL's colon read as a topic separator) is a surprise, not help.
 * Admin commands are suggested only when the typed topic is theirs (`keys lst` -> `keys list`).
 */
import type { Hook, Interfaces } from '@oclif/core'

/** Edit distance (insert, delete, substitute, and swap of neighbours: "chekc" is one slip). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ])
  for (let j = 1; j <= b.length; j++) d[0][j] = j
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  return d[a.length][b.length]
}

export interface CommandInfo {
  /** Words of the command, `['monitors', 'list']`. */
  words: string[]
  admin: boolean
}

export interface Suggestion {
  /** The command as typed by the user would be, arguments kept: `check https://example.com`. */
  line: string
  words: string[]
}

/** Quote an argument for a POSIX shell only when it needs it. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./~-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`
}

/**
 * The nearest command to the words typed, or undefined when nothing is near enough to be a slip.
 * `typed` is the command line after the binary, as the user gave it.
 */
export function suggestCommand(typed: string[], commands: CommandInfo[]): Suggestion | undefined {
  // the command's words are the leading ones that are not flags (at most two: topic and command)
  const lead: string[] = []
  for (const t of typed) {
    if (t.startsWith('-') || lead.length === 2) break
    lead.push(t.toLowerCase())
  }
  if (lead.length === 0) return undefined
  const adminTopic = commands.some((c) => c.admin && c.words.length > 1 && c.words[0] === lead[0])
  const candidates = commands.filter((c) => !c.admin || adminTopic)
  let best: { c: CommandInfo; used: number; distance: number } | undefined
  for (let used = 1; used <= lead.length; used++) {
    const words = lead.slice(0, used).join(' ')
    for (const c of candidates) {
      const distance = editDistance(words, c.words.join(' '))
      if (!best || distance < best.distance || (distance === best.distance && used > best.used))
        best = { c, used, distance }
    }
  }
  if (!best) return undefined
  const typedWords = lead.slice(0, best.used).join(' ')
  // a slip is a few characters: more than a third of the word is another word
  if (best.distance > Math.max(2, Math.floor(typedWords.length / 3))) return undefined
  const rest = typed.slice(best.used)
  return { words: best.c.words, line: [...best.c.words, ...rest.map(shellWord)].join(' ') }
}

/** The command line as typed: oclif's id joins words with ':', which a URL's colon breaks. */
export function typedLine(id: string, argv: string[], processArgv: string[]): string[] {
  const idWords = id.split(':')
  // process.argv is the truth when it is this invocation (it ends with the argv oclif gives)
  if (processArgv.length >= argv.length && processArgv[0] === idWords[0]) return processArgv
  return [...idWords, ...argv]
}

function commandInfos(config: Interfaces.Config): CommandInfo[] {
  return config.commands
    .filter((c) => !c.hidden)
    .map((c) => ({
      words: c.id.split(':'),
      admin:
        Object.hasOwn(c.flags ?? {}, 'admin-token') ||
        /^Admin:/.test(c.summary ?? c.description ?? '') ||
        c.id.startsWith('db:'),
    }))
}

const hook: Hook.CommandNotFound = async function (opts) {
  const bin = opts.config.bin
  const typed = typedLine(opts.id, opts.argv ?? [], process.argv.slice(2))
  const words: string[] = []
  for (const t of typed) {
    if (t.startsWith('-') || words.length === 2) break
    words.push(t)
  }
  const commands = commandInfos(opts.config)
  const suggestion = suggestCommand(typed, commands)
  // two words only under a known topic (`monitors lst`); `chek https://…` is not a `chek` topic
  const topic = commands.some((c) => c.words.length > 1 && c.words[0] === words[0])
  const unknown = topic ? words.join(' ') : words[0]
  const advice = suggestion
    ? `Did you mean \`${bin} ${suggestion.line}\`?`
    : `Run \`${bin} help\` for a list of commands.`
  // one line like every other CLI error (oclif's own `this.error` wraps and indents it)
  process.stderr.write(`Error: ${unknown} is not a ${bin} command. ${advice}\n`)
  this.exit(127)
}

export default hook
