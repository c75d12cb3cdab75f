import { existsSync, readdirSync, statSync } from 'node:fs'
import { execSync } from 'node:child_process'
import { join } from 'node:path'

/** The newest modification time of any file under `dir` (0 for none). */
export function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs
    if (mtime > newest) newest = mtime
  }
  return newest
}

/**
 * Why `dist/` must be rebuilt before end-to-end tests spawn the built CLI, or null when it is
 * current: it is missing, or a file in `src/` (or the package manifest) changed after the last build.
 */
export function staleBuild(root = '.'): string | null {
  const built = join(root, 'dist/commands/serve.js')
  if (!existsSync(built) || !existsSync(join(root, 'oclif.manifest.json'))) return 'dist/ is missing'
  const builtAt = statSync(built).mtimeMs
  if (newestMtime(join(root, 'src')) > builtAt) return 'src/ changed since the last build'
  if (statSync(join(root, 'package.json')).mtimeMs > builtAt)
    return 'package.json changed since the last build'
  return null
}

/**
 * End-to-end tests spawn the built CLI: build first when `dist/` is missing or older than `src/`,
 * so a test never runs yesterday's code. A failed build is reported but does not stop the unit
 * tests; the end-to-end ones then fail.
 */
export default function setup() {
  const why = staleBuild()
  if (why === null) return
  console.error(`global-setup: ${why}; running \`npm run build\``)
  try {
    execSync('npm run build', { stdio: 'inherit' })
  } catch {
    console.error('global-setup: `npm run build` failed; end-to-end tests will fail.')
  }
}
