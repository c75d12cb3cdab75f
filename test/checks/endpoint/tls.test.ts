/**
 * The tls probe against local servers with the test PKI: a good certificate (days left, issuer,
 * protocol), one about to expire (still valid), and expired, self-signed and wrong-name ones
 * (each with the reason the HTTP check gives); STARTTLS over SMTP (smtp-server), IMAP and POP3
 * (stand-ins), a refused STARTTLS, and a server that never starts the handshake (the timeout).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeTls, type TlsEndpointOptions } from '../../../src/checks/index.js'
import { makeTestPki, type TestCert, type TestPki } from '../../fixtures/certs.js'
import {
  imapServer,
  pop3Server,
  silentListener,
  smtpServer,
  tlsListener,
  type Listening,
} from '../../helpers/endpoints.js'

let pki: TestPki
const servers: Listening[] = []
beforeAll(async () => {
  pki = await makeTestPki()
}, 60_000)
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})

const opts = (): TlsEndpointOptions => ({ allowPrivateTargets: true, timeoutMs: 5_000, extraCA: pki.ca.cert })

async function serve(start: Promise<Listening>): Promise<number> {
  const s = await start
  servers.push(s)
  return s.port
}

const onPort = async (cert: (p: TestPki) => TestCert, host = '127.0.0.1') =>
  probeTls(host, await serve(tlsListener(cert(pki))), opts())

describe('probeTls', () => {
  it('a valid certificate: days left, issuer and protocol, no problem', async () => {
    const r = await onPort((p) => p.valid)
    expect(r).toMatchObject({ issuer: 'sitehealth Test CA', protocol: 'TLSv1.3', problem: null })
    expect(r.daysLeft).toBeGreaterThanOrEqual(88)
    expect(r.daysLeft).toBeLessThanOrEqual(90)
  })

  it('a certificate about to expire is still valid, with its few days left', async () => {
    const r = await onPort((p) => p.expiringSoon)
    expect(r).toMatchObject({ daysLeft: 5, problem: null })
  })

  it('expired, self-signed and wrong-name certificates each carry their reason', async () => {
    expect((await onPort((p) => p.expired)).problem).toMatch(
      /^Certificate for 127\.0\.0\.1 expired 10 days ago/,
    )
    expect((await onPort((p) => p.selfSigned)).problem).toMatch(
      /^Certificate for 127\.0\.0\.1 is self-signed/,
    )
    expect((await onPort((p) => p.wrongHost)).problem).toMatch(
      /^Certificate does not cover 127\.0\.0\.1: it is for wrong\.example/,
    )
    expect((await onPort((p) => p.expired)).daysLeft).toBe(-10)
  })

  it('an untrusted issuer is a problem too (no extra CA given)', async () => {
    const port = await serve(tlsListener(pki.valid))
    const r = await probeTls('127.0.0.1', port, { allowPrivateTargets: true, timeoutMs: 5_000 })
    expect(r.problem).toMatch(
      /cannot be traced to a trusted root|comes without the certificate of its issuer/,
    )
  })

  it('upgrades with STARTTLS over SMTP, IMAP and POP3', async () => {
    for (const [protocol, start] of [
      ['smtp', smtpServer(pki.valid)],
      ['imap', imapServer(pki.valid)],
      ['pop3', pop3Server(pki.expired)],
    ] as const) {
      const port = await serve(start)
      const r = await probeTls('127.0.0.1', port, { ...opts(), starttls: protocol })
      expect(r.issuer, protocol).toBe('sitehealth Test CA')
      expect(r.problem, protocol).toEqual(protocol === 'pop3' ? expect.stringMatching(/expired/) : null)
    }
  })

  it('a refused STARTTLS, a server that is not one, and one that never answers fail with words', async () => {
    const refused = await serve(imapServer(pki.valid, { refuse: true }))
    await expect(probeTls('127.0.0.1', refused, { ...opts(), starttls: 'imap' })).rejects.toThrow(
      `127.0.0.1:${refused} refused STARTTLS over IMAP ("a1 NO STARTTLS is off")`,
    )
    const pop = await serve(pop3Server(pki.valid))
    await expect(probeTls('127.0.0.1', pop, { ...opts(), starttls: 'smtp' })).rejects.toThrow(
      /did not answer as an SMTP server/,
    )
    const silent = await serve(silentListener())
    await expect(probeTls('127.0.0.1', silent, { ...opts(), timeoutMs: 300 })).rejects.toThrow(
      'No answer from 127.0.0.1 within 0.3 s',
    )
  })
})
