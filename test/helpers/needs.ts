/**
 * Suites that need something from outside the repository (PostgreSQL, Redis, Chromium): described
 * when it is there. Where it is not, they are skipped with one line; with CI set (CI provides them
 * all) one failing test says what is missing instead.
 */
import { describe, it } from 'vitest'

/** `missing`: why `what` cannot be used (where it was looked for), or undefined when it can. */
export function describeNeeding(
  what: string,
  missing: string | undefined,
  name: string,
  fn: () => void,
): void {
  if (!missing) {
    describe(name, fn)
    return
  }
  if (process.env.CI) {
    describe(name, () => {
      it(`needs ${what} (CI is set, so this fails instead of skipping)`, () => {
        throw new Error(missing)
      })
    })
    return
  }
  console.warn(`[skip] ${name}: ${missing}; set CI to make this fail.`)
  describe.skip(name, fn)
}
