/**
 * One convention for end-to-end tests: a test that starts the built CLI (its `serve`, `mcp` or any
 * command, through test/helpers/serve.ts or test/helpers/cli.ts) lives in test/e2e/,
 * named like every other test, so the Node 22 and 24 passes of .ci/run (`vitest run test/e2e`, one
 * shard each) run every one of them but the few it names as testing services and Chromium rather
 * than Node.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const TEST = join(ROOT, 'test')

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? walk(p) : [p]
  })
}

const testFiles = walk(TEST)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => relative(ROOT, f))

describe('end-to-end test files', () => {
  it('that start the built CLI are all in test/e2e/', () => {
    const spawning = testFiles.filter((f) =>
      /from '(\.\.\/)+helpers\/(serve|cli)\.js'/.test(readFileSync(join(ROOT, f), 'utf8')),
    )
    expect(spawning.length).toBeGreaterThan(10)
    expect(spawning.filter((f) => !f.startsWith('test/e2e/'))).toEqual([])
  })

  it('have no second naming convention (no *.e2e.test.ts)', () => {
    expect(testFiles.filter((f) => /\.e2e\.test\.ts$/.test(f))).toEqual([])
  })

  it('run on Node 22 and 24 in .ci/run, all but the named service, browser and attack files', () => {
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    expect(ci).toMatch(/for major in 22 24; do/)
    expect(ci).toMatch(/npx vitest run test\/e2e "\$\{EXCLUDES\[@\]\}" --shard="\$shard\/2"\n/)
    expect(ci).toMatch(/shard=1\n/)
    const once = [...(ci.match(/ON_NODE_ONLY_ONCE=\(([^)]*)\)/)?.[1] ?? '').matchAll(/'([^']+)'/g)].map(
      (m) => m[1],
    )
    expect(once.length).toBeGreaterThan(0)
    // each names an e2e file (or a family of them) that exists; most e2e files still run thrice
    const glob = (g: string) => new RegExp(`^${g.replaceAll('.', '\\.').replaceAll('*', '[^/]*')}$`)
    const e2e = testFiles.filter((f) => f.startsWith('test/e2e/'))
    for (const g of once)
      expect(
        e2e.some((f) => glob(g).test(f)),
        g,
      ).toBe(true)
    const left = e2e.filter((f) => !once.some((g) => glob(g).test(f)))
    expect(left.length).toBeGreaterThan(e2e.length / 2)
  })
})
