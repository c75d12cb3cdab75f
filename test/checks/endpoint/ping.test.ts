/**
 * The ping engine (src/checks/endpoint/ping.ts): the summary parsed from captured iputils and
 * BusyBox outputs, whether this server may ping (the real `ping`, a missing one, one that is not
 * permitted), 127.0.0.1 pinged for real where ping works, and the guard on the host.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsePing, pingAvailability, probePing } from '../../../src/checks/endpoint/ping.js'
import { CheckError } from '../../../src/checks/errors.js'

const IPUTILS_OK = `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.
64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.033 ms
64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.041 ms
64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.052 ms

--- 127.0.0.1 ping statistics ---
3 packets transmitted, 3 received, 0% packet loss, time 2043ms
rtt min/avg/max/mdev = 0.033/0.042/0.052/0.007 ms
`
const IPUTILS_LOSS = `PING 192.0.2.10 (192.0.2.10) 56(84) bytes of data.
64 bytes from 192.0.2.10: icmp_seq=2 ttl=54 time=12.5 ms

--- 192.0.2.10 ping statistics ---
3 packets transmitted, 1 received, 66.6667% packet loss, time 2003ms
rtt min/avg/max/mdev = 12.500/12.500/12.500/0.000 ms
`
const IPUTILS_NONE = `PING 192.0.2.11 (192.0.2.11) 56(84) bytes of data.
From 192.0.2.1 icmp_seq=1 Destination Host Unreachable

--- 192.0.2.11 ping statistics ---
3 packets transmitted, 0 received, +3 errors, 100% packet loss, time 2030ms
`
const BUSYBOX = `PING 127.0.0.1 (127.0.0.1): 56 data bytes
64 bytes from 127.0.0.1: seq=0 ttl=64 time=0.071 ms

--- 127.0.0.1 ping statistics ---
2 packets transmitted, 2 packets received, 0% packet loss
round-trip min/avg/max = 0.061/0.066/0.071 ms
`

let dir: string
const script = async (name: string, body: string) => {
  const path = join(dir, name)
  await writeFile(path, `#!/bin/sh\n${body}\n`)
  await chmod(path, 0o755)
  return path
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitehealth-ping-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('parsePing', () => {
  it('reads packets, loss and the average round trip', () => {
    expect(parsePing(IPUTILS_OK)).toEqual({ transmitted: 3, received: 3, packetLoss: 0, avgMs: 0.042 })
    expect(parsePing(IPUTILS_LOSS)).toEqual({ transmitted: 3, received: 1, packetLoss: 66.6667, avgMs: 12.5 })
    expect(parsePing(IPUTILS_NONE)).toEqual({ transmitted: 3, received: 0, packetLoss: 100, avgMs: null })
    expect(parsePing(BUSYBOX)).toEqual({ transmitted: 2, received: 2, packetLoss: 0, avgMs: 0.066 })
    expect(parsePing('ping: unknown host')).toBeNull()
  })
})

describe('pingAvailability', () => {
  it('says when ping is missing or not permitted', async () => {
    const missing = await pingAvailability(join(dir, 'no-such-ping'))
    expect(missing).toEqual({ ok: false, reason: expect.stringContaining('not installed') })
    const denied = await pingAvailability(
      await script('denied', 'echo "ping: socket: Operation not permitted" >&2; exit 2'),
    )
    expect(denied).toEqual({ ok: false, reason: expect.stringContaining('Operation not permitted') })
    expect(await pingAvailability(await script('fine', `printf '%s' "${IPUTILS_OK}"; exit 0`))).toEqual({
      ok: true,
    })
  })
})

describe('probePing', () => {
  it('pings 127.0.0.1 where this machine may ping (else says why)', async () => {
    const can = await pingAvailability()
    if (!can.ok) {
      expect(can.reason).toMatch(/ping/)
      return
    }
    const r = await probePing({ host: '127.0.0.1', count: 2, timeoutMs: 5000, allowPrivateTargets: true })
    expect(r).toMatchObject({ address: '127.0.0.1', transmitted: 2, received: 2, packetLoss: 0 })
    expect(r.avgMs).toBeGreaterThanOrEqual(0)
  })

  it('reads a summary with loss from the command, with a fixed argument list', async () => {
    const fake = await script(
      'lossy',
      `echo "$@" > ${join(dir, 'args')}; printf '%s' "${IPUTILS_LOSS}"; exit 0`,
    )
    const r = await probePing({ host: '8.8.8.8', count: 3, timeoutMs: 4000, command: fake })
    expect(r).toMatchObject({ address: '8.8.8.8', received: 1, packetLoss: 66.6667, avgMs: 12.5 })
    const { readFile } = await import('node:fs/promises')
    expect((await readFile(join(dir, 'args'), 'utf8')).trim()).toBe('-4 -n -c 3 -w 4 -W 4 8.8.8.8')
  })

  it('refuses private targets: a literal, and a name that resolves to one', async () => {
    const literal = await probePing({ host: '127.0.0.1', count: 1, timeoutMs: 2000 }).catch((e) => e)
    expect(literal).toBeInstanceOf(CheckError)
    expect(literal.code).toBe('invalid_url')
    const named = await probePing({
      host: 'inside.example.test',
      count: 1,
      timeoutMs: 2000,
      resolver: async () => [{ address: '10.1.2.3', family: 4 }],
    }).catch((e) => e)
    expect(named).toBeInstanceOf(CheckError)
    expect(named.code).toBe('invalid_url')
    expect(named.message).not.toContain('10.1.2.3')
  })

  it('fails with the reason when the command cannot run or says nothing useful', async () => {
    const missing = await probePing({
      host: '8.8.8.8',
      count: 1,
      timeoutMs: 2000,
      command: join(dir, 'no-such-ping'),
    }).catch((e) => e)
    expect(missing).toBeInstanceOf(CheckError)
    expect(missing.message).toContain('not installed')
    const broken = await script('broken', 'echo "ping: sendmsg: Network is unreachable" >&2; exit 2')
    const err = await probePing({ host: '8.8.8.8', count: 1, timeoutMs: 2000, command: broken }).catch(
      (e) => e,
    )
    expect(err.message).toContain('Network is unreachable')
  })
})
