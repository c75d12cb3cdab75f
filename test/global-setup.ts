import { existsSync } from 'node:fs'
import { execSync } from 'node:child_process'

/**
 * End-to-end tests spawn the built CLI: build once if this checkout has not been built yet.
 * A failed build is reported but does not stop the unit tests; the end-to-end ones then fail.
 */
export default function setup() {
  if (existsSync('dist/commands/serve.js') && existsSync('oclif.manifest.json')) return
  try {
    execSync('npm run build', { stdio: 'inherit' })
  } catch {
    console.error('global-setup: `npm run build` failed; end-to-end tests will fail.')
  }
}
