/**
 * docs/architecture.md's numbers (files and lines per folder, circles, long functions, large
 * files) are scripts/structure-report.mjs's own: this fails when the marked block no longer says
 * what the script measures. Fix: node scripts/structure-report.mjs --write
 */
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

it('docs/architecture.md holds the numbers structure-report.mjs measures now', () => {
  let problem = ''
  try {
    execFileSync(process.execPath, ['scripts/structure-report.mjs', '--check'], { cwd: root, stdio: 'pipe' })
  } catch (err) {
    problem = String((err as { stderr?: Buffer }).stderr ?? err)
  }
  expect(problem).toBe('')
}, 60_000)
