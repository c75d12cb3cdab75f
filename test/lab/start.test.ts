// A browser that cannot start stops Lab.start (and so `serve --lab-browser`) at once with a clear
// error, instead of hanging or leaving its temporary profile behind. Needs no Chromium.
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { expect, it } from 'vitest'
import { Lab, LabStartError } from '../../src/lab/index.js'

const profiles = async () => (await readdir(tmpdir())).filter((f) => f.startsWith('sitehealth-lab-'))

it.each([
  ['/nonexistent/chromium', /did not start: spawn \/nonexistent\/chromium ENOENT/],
  ['/bin/false', /did not start: it exited \(code 1\)/],
])(
  '%s: a LabStartError saying why, and no profile left',
  async (browser, why) => {
    const before = await profiles()
    const err = await Lab.start({ browser }).then(
      () => new Error('started'),
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(LabStartError)
    expect((err as Error).message).toMatch(why)
    expect((await profiles()).filter((p) => !before.includes(p))).toEqual([])
  },
  60_000,
)
