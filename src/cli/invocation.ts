/**
 * How the person who started this process can run the CLI again, for hints that name a command
 * (`serve`'s next steps): `sitehealth` only when that name on PATH is this very install, `npx
 * sitehealth` for an install npx runs (its cache, a project's node_modules), else `node <path to bin/run.js>` (relative when it is under the current
 * directory, as after a clone: `node bin/run.js`).
 */
import { realpathSync, statSync } from 'node:fs'
import { delimiter, isAbsolute, join, relative } from 'node:path'

function real(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

export interface InvocationEnv {
  bin: string
  /** process.argv[1]: the script node runs. */
  script: string
  cwd: string
  env: NodeJS.ProcessEnv
}

export function invocation(o: InvocationEnv): string {
  const script = real(o.script) ?? o.script
  // run from npx's cache, or as a dependency of the project here: npx finds it again
  // (npm_command is no sign: it is inherited by everything an `npx` command starts)
  const viaNpx = /[\\/](_npx|node_modules)[\\/]/.test(script)
  for (const dir of (o.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, o.bin)
    try {
      if (!statSync(candidate).isFile()) continue
    } catch {
      continue
    }
    // the first match is what the shell runs: it must be this install, not an older one
    if (real(candidate) === script) return o.bin
    break
  }
  return viaNpx ? `npx ${o.bin}` : fallback(script, o.cwd)
}

function fallback(script: string, cwd: string): string {
  const rel = relative(cwd, script)
  const path = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : script
  return `node ${/\s/.test(path) ? JSON.stringify(path) : path}`
}

export const currentInvocation = (bin: string): string =>
  invocation({ bin, script: process.argv[1] ?? bin, cwd: process.cwd(), env: process.env })
