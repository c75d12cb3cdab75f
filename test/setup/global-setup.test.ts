import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { staleBuild } from '../global-setup.js'

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

/** A checkout with src/, dist/ and the manifest, their times in seconds since the epoch. */
function checkout(times: { src: number; dist: number; pkg?: number }): string {
  root = mkdtempSync(join(tmpdir(), 'sitehealth-setup-'))
  mkdirSync(join(root, 'src/commands'), { recursive: true })
  mkdirSync(join(root, 'dist/commands'), { recursive: true })
  const files: Array<[string, number]> = [
    ['src/commands/serve.ts', times.src],
    ['dist/commands/serve.js', times.dist],
    ['oclif.manifest.json', times.dist],
    ['package.json', times.pkg ?? times.dist - 100],
  ]
  for (const [path, at] of files) {
    writeFileSync(join(root, path), '')
    utimesSync(join(root, path), at, at)
  }
  return root
}

describe('staleBuild (the test set-up rebuilds dist/ when it is stale)', () => {
  it('is null when dist/ is newer than every file of src/', () => {
    expect(staleBuild(checkout({ src: 1_000, dist: 2_000 }))).toBeNull()
  })

  it('asks for a build when a file of src/ changed after dist/ was built', () => {
    expect(staleBuild(checkout({ src: 3_000, dist: 2_000 }))).toMatch(/src\/ changed/)
  })

  it('asks for a build when package.json changed after dist/ was built', () => {
    expect(staleBuild(checkout({ src: 1_000, dist: 2_000, pkg: 2_500 }))).toMatch(/package\.json/)
  })

  it('asks for a build when dist/ is missing', () => {
    const dir = checkout({ src: 1_000, dist: 2_000 })
    rmSync(join(dir, 'dist'), { recursive: true })
    expect(staleBuild(dir)).toBe('dist/ is missing')
  })
})
