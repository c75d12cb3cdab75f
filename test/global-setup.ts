import { existsSync } from 'node:fs'
import { execSync } from 'node:child_process'

/** End-to-end tests spawn the built CLI: build it once if this checkout has not been built yet. */
export default function setup() {
  if (!existsSync('dist/commands') || !existsSync('oclif.manifest.json')) {
    execSync('npm run build', { stdio: 'inherit' })
  }
}
