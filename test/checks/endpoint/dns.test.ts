/**
 * The dns engine (src/checks/endpoint/dns.ts) against a local server (dns-packet on 127.0.0.1):
 * each record type normalised and sorted, NXDOMAIN, SERVFAIL, REFUSED and silence as reasons, an
 * empty NOERROR answer, answers that change, and the guard on private addresses in an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryDns } from '../../../src/checks/endpoint/dns.js'
import { CheckError } from '../../../src/checks/errors.js'
import { readResolver, type DnsRecordType, type ResolverAddress } from '../../../src/contract/dns.js'
import { startDnsServer, type DnsServer } from '../../helpers/dns-server.js'

let server: DnsServer
let resolver: ResolverAddress

beforeAll(async () => {
  server = await startDnsServer({
    'example.test': {
      records: {
        A: ['93.184.216.34', '93.184.215.14'],
        AAAA: ['2606:2800:220:1:248:1893:25c8:1946'],
        MX: [
          { preference: 20, exchange: 'mx2.example.test' },
          { preference: 10, exchange: 'mx1.example.test' },
        ],
        TXT: [['v=spf1 ', '-all'], ['google-site-verification=abc']],
        NS: ['ns2.example.test', 'ns1.example.test'],
        SOA: [
          {
            mname: 'ns1.example.test',
            rname: 'hostmaster.example.test',
            serial: 2026112901,
            refresh: 7200,
            retry: 3600,
            expire: 1209600,
            minimum: 300,
          },
        ],
        CAA: [{ flags: 0, tag: 'issue', value: 'letsencrypt.org' }],
      },
    },
    'www.example.test': { records: { CNAME: ['example.test'] } },
    '_sip._tcp.example.test': {
      records: { SRV: [{ priority: 10, weight: 5, port: 5060, target: 'sip.example.test' }] },
    },
    'private.example.test': { records: { A: ['10.0.0.7'] } },
    'broken.example.test': { rcode: 'SERVFAIL' },
    'refused.example.test': { rcode: 'REFUSED' },
    'silent.example.test': { silent: true },
  })
  const r = readResolver(server.address)
  if ('problem' in r) throw new Error(r.problem)
  resolver = r
})

afterAll(() => server?.close())

const ask = (host: string, type: DnsRecordType, o: { timeoutMs?: number; allow?: boolean } = {}) =>
  queryDns({ host, type, resolver, timeoutMs: o.timeoutMs ?? 3000, allowPrivateTargets: o.allow ?? false })

async function reasonOf(p: Promise<unknown>): Promise<CheckError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(CheckError)
  return err as CheckError
}

describe('queryDns', () => {
  it('answers each record type as sorted strings', async () => {
    expect((await ask('example.test', 'A')).answers).toEqual(['93.184.215.14', '93.184.216.34'])
    expect((await ask('example.test', 'AAAA')).answers).toEqual(['2606:2800:220:1:248:1893:25c8:1946'])
    expect((await ask('www.example.test', 'CNAME')).answers).toEqual(['example.test'])
    expect((await ask('example.test', 'MX')).answers).toEqual(['10 mx1.example.test', '20 mx2.example.test'])
    expect((await ask('example.test', 'TXT')).answers).toEqual([
      'google-site-verification=abc',
      'v=spf1 -all',
    ])
    expect((await ask('example.test', 'NS')).answers).toEqual(['ns1.example.test', 'ns2.example.test'])
    expect((await ask('example.test', 'SOA')).answers).toEqual([
      'ns1.example.test hostmaster.example.test 2026112901 7200 3600 1209600 300',
    ])
    expect((await ask('example.test', 'CAA')).answers).toEqual(['0 issue "letsencrypt.org"'])
    expect((await ask('_sip._tcp.example.test', 'SRV')).answers).toEqual(['10 5 5060 sip.example.test'])
  })

  it('gives an empty answer for NOERROR without records, and follows changed answers', async () => {
    expect((await ask('www.example.test', 'A')).answers).toEqual([])
    server.zone['moving.example.test'] = { records: { A: ['1.2.3.4'] } }
    expect((await ask('moving.example.test', 'A')).answers).toEqual(['1.2.3.4'])
    server.zone['moving.example.test'] = { records: { A: ['1.2.3.5'] } }
    expect((await ask('moving.example.test', 'A')).answers).toEqual(['1.2.3.5'])
  })

  it('fails with the reason: NXDOMAIN, SERVFAIL, REFUSED, a timeout', async () => {
    const nx = await reasonOf(ask('nowhere.example.test', 'A'))
    expect(nx.code).toBe('check_failed')
    expect(nx.message).toContain('NXDOMAIN')
    expect((await reasonOf(ask('broken.example.test', 'A'))).message).toContain('SERVFAIL')
    expect((await reasonOf(ask('refused.example.test', 'A'))).message).toContain('REFUSED')
    const silent = await reasonOf(ask('silent.example.test', 'A', { timeoutMs: 500 }))
    expect(silent.message).toContain('timeout')
  })

  it('refuses an answer with a private address unless private targets are allowed', async () => {
    const blocked = await reasonOf(ask('private.example.test', 'A'))
    expect(blocked.code).toBe('invalid_url')
    expect(blocked.message).toContain('private or local address')
    expect(blocked.message).not.toContain('10.0.0.7')
    expect((await ask('private.example.test', 'A', { allow: true })).answers).toEqual(['10.0.0.7'])
  })
})

describe('readResolver', () => {
  it('reads IP[:port] and refuses names and bad ports', () => {
    expect(readResolver('9.9.9.9')).toEqual({ address: '9.9.9.9', port: 53, family: 4 })
    expect(readResolver('9.9.9.9:5353')).toEqual({ address: '9.9.9.9', port: 5353, family: 4 })
    expect(readResolver('2620:fe::fe')).toEqual({ address: '2620:fe::fe', port: 53, family: 6 })
    expect(readResolver('[2620:fe::fe]:5353')).toEqual({ address: '2620:fe::fe', port: 5353, family: 6 })
    for (const bad of ['dns.google', '9.9.9.9:0', '9.9.9.9:70000', '300.1.1.1', '', '[::1', 'http://9.9.9.9'])
      expect(readResolver(bad), bad).toHaveProperty('problem')
  })
})
