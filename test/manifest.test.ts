/**
 * oclif.manifest.json is produced by `npm run build` and committed. It must describe the commands
 * as the sources declare them now: a stale manifest makes oclif show old flags and help.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')
const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

function commandFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? commandFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
}

const sources = commandFiles(join(root, 'src/commands')).map((file) => {
  const id = relative(join(root, 'src/commands'), file)
    .replace(/\.ts$/, '')
    .replace(/(^|\/)index$/, '')
    .split('/')
    .join(':')
  return { id, file }
})

describe('oclif.manifest.json', () => {
  it('has the package version', () => {
    expect(manifest.version).toBe(pkg.version)
  })

  it('lists exactly the commands in src/commands', () => {
    expect(Object.keys(manifest.commands).sort()).toEqual(sources.map((s) => s.id).sort())
  })

  it.each(sources)('is current for `$id` (summary, flags, args)', async ({ id, file }) => {
    const cmd = (await import(file)).default
    const entry = manifest.commands[id]
    expect(entry.summary).toBe(cmd.summary)
    expect(Object.keys(entry.flags).sort()).toEqual(Object.keys({ ...cmd.baseFlags, ...cmd.flags }).sort())
    for (const [name, flag] of Object.entries<any>({ ...cmd.baseFlags, ...cmd.flags })) {
      // the manifest omits `false` defaults of boolean flags; function defaults are resolved at run time
      const expected =
        typeof flag.default === 'function' || flag.default === false
          ? entry.flags[name].default
          : flag.default
      expect(entry.flags[name].default, `${id} --${name} default`).toEqual(expected)
      expect(entry.flags[name].type, `${id} --${name} type`).toBe(flag.type)
    }
    expect(Object.keys(entry.args ?? {})).toEqual(Object.keys(cmd.args ?? {}))
  })
})
