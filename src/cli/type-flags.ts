/**
 * The monitor type flags of `monitors create` (`--heartbeat`, `--grace`, …): each type's, as its
 * face declares them (src/contract/monitor-types/), and what they make of the create body. A type
 * without flags is the one the URL argument makes.
 */
import { Flags } from '@oclif/core'
import type { BooleanFlag, OptionFlag } from '@oclif/core/interfaces'
import {
  FlagValueError,
  typeFaces,
  type MonitorTypeFace,
  type TypeCli,
  type TypeFlag,
} from '../contract/monitor-types/index.js'
import { UsageError } from './errors.js'

type FlaggedFace = MonitorTypeFace & { cli: TypeCli }
const FLAGGED = typeFaces().filter((f): f is FlaggedFace => f.cli !== undefined)

type TypeOclifFlag = BooleanFlag<boolean> | OptionFlag<string | undefined>

const oclifFlag = (f: TypeFlag): TypeOclifFlag =>
  f.value === undefined
    ? Flags.boolean<boolean>({ description: f.description, default: false })
    : Flags.string({
        description: f.description,
        helpValue: f.value,
        ...(f.options ? { options: [...f.options] } : {}),
      })

/** Every type's flags, in the registry's order, for the command's static `flags`. */
export const typeFlags: Record<string, TypeOclifFlag> = Object.fromEntries(
  FLAGGED.flatMap((t) => [t.cli.flag, ...t.cli.flags]).map((f) => [f.name, oclifFlag(f)]),
)

const orWords = (words: string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`

/** The flags that pick a type, as the help and errors name them: `--heartbeat`. */
export const typeSwitches = orWords(FLAGGED.map((t) => `--${t.cli.flag.name}`))

/** The help's paragraphs and examples of the types. */
export const typeHelp = FLAGGED.map((t) => t.cli.help).join('\n\n')
export const typeExamples = FLAGGED.flatMap((t) => t.cli.examples)

const given = (v: unknown) => v !== undefined && v !== false

/**
 * The type the flags pick, or undefined (the URL argument's type). Refuses two types at once and
 * a type's flags without it.
 */
export function pickedType(flags: Record<string, unknown>): FlaggedFace | undefined {
  const picked = FLAGGED.filter((t) => given(flags[t.cli.flag.name]))
  if (picked.length > 1) throw new UsageError(`Give one of ${typeSwitches}: a monitor has one type.`)
  for (const t of FLAGGED)
    if (t !== picked[0])
      for (const f of t.cli.flags)
        if (given(flags[f.name]))
          throw new UsageError(`--${f.name} is for ${t.noun} monitors (--${t.cli.flag.name}).`)
  return picked[0]
}

/** The create body's fields of the picked type: its `type` and what its flags say. */
export function typeBody(t: FlaggedFace, flags: Record<string, unknown>): Record<string, unknown> {
  const typed = Object.fromEntries(
    [t.cli.flag, ...t.cli.flags].map((f) => [f.name, flags[f.name] as string | boolean | undefined]),
  )
  try {
    return { type: t.type, ...t.cli.body(typed) }
  } catch (err) {
    if (err instanceof FlagValueError) throw new UsageError(err.message)
    throw err
  }
}
