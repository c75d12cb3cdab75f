/**
 * A separate process for the store's cross-process tests, run with `node --import tsx`.
 *   hold DIR            open the store, print "ready", wait to be killed
 *   commit DIR USERS    open the store, commit checks in a loop for USERS users (4 at a time each),
 *                       print every acknowledged id as "<user> <id>"
 */
import { openStore } from '../../../src/store/index.js'
import { sampleCheck } from '../helpers.js'

const [mode, dir, usersArg] = process.argv.slice(2)
const store = await openStore(dir)

if (mode === 'hold') {
  process.stdout.write('ready\n')
  setInterval(() => {}, 1 << 30)
} else if (mode === 'commit') {
  const users = Array.from({ length: Number(usersArg ?? 1) }, (_, i) => `crash-user-${i}`)
  for (const u of users) await store.users.ensure(u, 1_000_000)
  process.stdout.write('ready\n')
  let n = 0
  const loop = async (user: string) => {
    for (;;) {
      const r = await store.users.reserveCredit(user)
      if (!r) throw new Error('out of credits')
      const { check } = await store.checks.commit(r, sampleCheck(user, n++))
      process.stdout.write(`${user} ${check.id}\n`)
    }
  }
  await Promise.all(users.flatMap((u) => [loop(u), loop(u), loop(u), loop(u)]))
} else {
  throw new Error(`unknown mode ${mode}`)
}
