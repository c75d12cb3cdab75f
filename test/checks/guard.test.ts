import { describe, expect, it } from 'vitest'
import { CheckError } from '../../src/checks/errors.js'
import { assertTargetAllowed, isBlockedAddress, parseTargetUrl } from '../../src/checks/guard.js'
import { blockedAddressReason, parseIPv4, parseIPv6 } from '../../src/checks/ip.js'

/** Runs fn and returns the CheckError it must throw (fails the test otherwise). */
function invalid(fn: () => unknown): CheckError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(CheckError)
    expect((err as CheckError).code).toBe('invalid_url')
    return err as CheckError
  }
  throw new Error('expected an invalid_url CheckError, nothing was thrown')
}

const check = (input: unknown, allowPrivateTargets = false) =>
  assertTargetAllowed(parseTargetUrl(input), { allowPrivateTargets })

// ---------------------------------------------------------------------------------------------
// Blocked URL forms: [url, what the message must mention]

/** First and last address of every blocked IPv4 range. */
const V4_RANGE_EDGES: [string, string, RegExp][] = [
  ['0.0.0.0', '0.255.255.255', /this network|unspecified/],
  ['10.0.0.0', '10.255.255.255', /private/],
  ['100.64.0.0', '100.127.255.255', /carrier-grade NAT/],
  ['127.0.0.0', '127.255.255.255', /loopback/],
  ['169.254.0.0', '169.254.255.255', /link-local/],
  ['172.16.0.0', '172.31.255.255', /private/],
  ['192.0.0.0', '192.0.0.255', /IETF protocol/],
  ['192.0.2.0', '192.0.2.255', /documentation/],
  ['192.88.99.0', '192.88.99.255', /6to4 relay/],
  ['192.168.0.0', '192.168.255.255', /private/],
  ['198.18.0.0', '198.19.255.255', /benchmarking/],
  ['198.51.100.0', '198.51.100.255', /documentation/],
  ['203.0.113.0', '203.0.113.255', /documentation/],
  ['224.0.0.0', '239.255.255.255', /multicast/],
  ['240.0.0.0', '255.255.255.254', /reserved/],
]

const BLOCKED: [string, RegExp][] = [
  // loopback, every spelling Node's URL parser folds into 127.0.0.1
  ['http://127.0.0.1/', /127\.0\.0\.1 is a loopback address/],
  ['http://127.0.0.1:8080/admin?x=1', /loopback/],
  ['https://127.0.0.1:443/', /loopback/],
  ['http://2130706433/', /loopback/],
  ['http://0177.0.0.1/', /loopback/],
  ['http://0177.1/', /loopback/],
  ['http://017700000001/', /loopback/],
  ['http://0x7f000001/', /loopback/],
  ['http://0x7F000001/', /loopback/],
  ['http://0x7f.0.0.1/', /loopback/],
  ['http://0x7f.1/', /loopback/],
  ['http://0x7f.0x00.0x00.0x01/', /loopback/],
  ['http://%30x7f.1/', /loopback/],
  ['http://127.1/', /loopback/],
  ['http://127.0.1/', /loopback/],
  ['http://①②⑦.⓪.⓪.①/', /loopback/],
  ['http://１２７.０.０.１/', /loopback/],
  ['http://%31%32%37.0.0.1/', /loopback/],
  ['http://127.0.0.%31/', /loopback/],
  ['http://127.0.0.1./', /loopback/],
  ['http://127.0.0.1../', /loopback/],
  ['http://127.0.0.1%2e/', /loopback/],
  ['http://127.0.0.1%2e%2e/x', /loopback/],
  ['http://127.42.42.42:9000/deep/path', /loopback/],
  // the unspecified address
  ['http://0/', /unspecified/],
  ['http://0.0.0.0/', /unspecified/],
  ['http://0x0/', /unspecified/],
  ['http://0.0.0.0:3000/', /unspecified/],
  // other private ranges in odd spellings
  ['http://10.1/', /private/],
  ['http://167772161/', /private/],
  ['http://0xa.0.0.1/', /private/],
  ['http://0300.0250.0.1/', /private/],
  ['http://3232235521/', /private/],
  ['http://0xac.0x10.1/', /private/],
  ['http://169.254.169.254/latest/meta-data/', /link-local/],
  ['http://0xa9fea9fe/', /link-local/],
  ['http://4294967295/', /broadcast/],
  ['http://255.255.255.255/', /broadcast/],
  // localhost names
  ['http://localhost/', /localhost is a name for this machine/],
  ['http://localhost:3000/x', /localhost/],
  ['https://localhost/', /localhost/],
  ['http://LOCALHOST/', /localhost/],
  ['http://LocalHost./', /localhost/],
  ['http://localhost./', /localhost/],
  ['http://localhost../', /localhost/],
  ['http://ｌｏｃａｌｈｏｓｔ/', /localhost/],
  ['http://ＬＯＣＡＬＨＯＳＴ/', /localhost/],
  ['http://localhost。/', /localhost/],
  ['http://localhost%2e/', /localhost/],
  ['http://%6c%6f%63%61%6c%68%6f%73%74/', /localhost/],
  ['http://loc%41lhost/', /localhost/],
  ['http://foo.localhost/', /localhost/],
  ['http://FOO.LocalHost./', /localhost/],
  ['http://a.b.c.localhost:8443/x', /localhost/],
  ['http://ａ.localhost/', /localhost/],
  ['http://localhost.localdomain/', /localhost/],
  ['http://ip6-localhost/', /localhost/],
  // IPv6 loopback and unspecified
  ['http://[::1]/', /\[::1\] is a loopback address/],
  ['http://[::1]:8080/x', /loopback/],
  ['http://[0:0:0:0:0:0:0:1]/', /loopback/],
  ['http://[0000::0001]/', /loopback/],
  ['http://[::]/', /unspecified/],
  ['http://[0:0:0:0:0:0:0:0]/', /unspecified/],
  // IPv4-mapped, whatever the embedded address
  ['http://[::ffff:127.0.0.1]/', /IPv4-mapped.*127\.0\.0\.1/],
  ['http://[::ffff:7f00:1]/', /IPv4-mapped/],
  ['http://[0:0:0:0:0:ffff:7f00:1]/', /IPv4-mapped/],
  ['https://[::ffff:127.0.0.1]:443/', /IPv4-mapped/],
  ['http://[::ffff:10.0.0.1]/', /IPv4-mapped.*10\.0\.0\.1/],
  ['http://[::ffff:169.254.169.254]/', /IPv4-mapped/],
  ['http://[::ffff:8.8.8.8]/', /IPv4-mapped.*8\.8\.8\.8/],
  ['http://[::ffff:93.184.215.14]/', /IPv4-mapped/],
  ['http://[::ffff:0.0.0.0]/', /IPv4-mapped/],
  // IPv4-compatible and SIIT-translated forms
  ['http://[::127.0.0.1]/', /IPv4-compatible/],
  ['http://[::8.8.8.8]/', /IPv4-compatible/],
  ['http://[::ffff:0:7f00:1]/', /outside the global unicast/],
  // NAT64
  ['http://[64:ff9b::7f00:1]/', /NAT64.*127\.0\.0\.1/],
  ['http://[64:ff9b::127.0.0.1]/', /NAT64/],
  ['http://[64:ff9b::8.8.8.8]/', /NAT64/],
  ['http://[64:ff9b:1::1]/', /local-use NAT64/],
  ['http://[64:ff9b:1:ffff::a00:1]/', /NAT64/],
  // 6to4 and Teredo
  ['http://[2002:7f00:1::]/', /6to4/],
  ['http://[2002:c0a8:101::1]/', /6to4/],
  ['http://[2002:808:808::1]/', /6to4/],
  ['http://[2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff]/', /6to4/],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', /Teredo/],
  ['http://[2001::1]/', /Teredo/],
  // the rest of 2001::/23
  ['http://[2001:1::1]/', /IETF protocol/],
  ['http://[2001:2::1]/', /benchmarking/],
  ['http://[2001:2:0:ffff::1]/', /benchmarking/],
  ['http://[2001:3::1]/', /IETF protocol/],
  ['http://[2001:10::1]/', /ORCHID/],
  ['http://[2001:1f:ffff::1]/', /ORCHID/],
  ['http://[2001:20::1]/', /ORCHIDv2/],
  ['http://[2001:2f:ffff::1]/', /ORCHIDv2/],
  ['http://[2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff]/', /IETF protocol/],
  // documentation and segment routing (SRv6 is outside 2000::/3, named for the message)
  ['http://[2001:db8::1]/', /documentation/],
  ['http://[2001:db8:ffff:ffff:ffff:ffff:ffff:ffff]/', /documentation/],
  ['http://[3fff::1]/', /documentation/],
  ['http://[3fff:fff:ffff::1]/', /documentation/],
  ['http://[5f00::1]/', /segment routing/],
  // outside 2000::/3
  ['http://[4000::1]/', /outside the global unicast/],
  ['http://[5eff:ffff::1]/', /outside the global unicast/],
  ['http://[5f01::1]/', /outside the global unicast/],
  ['http://[100::1]/', /discard/],
  ['http://[100::ffff:ffff:ffff:ffff]/', /discard/],
  ['http://[fc00::1]/', /unique local/],
  ['http://[fd12:3456:789a::1]/', /unique local/],
  ['http://[fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]/', /unique local/],
  ['http://[fe80::1]/', /link-local/],
  ['http://[febf:ffff::1]/', /link-local/],
  ['http://[fec0::1]/', /site-local/],
  ['http://[feff::1]/', /site-local/],
  ['http://[ff02::1]/', /multicast/],
  ['http://[ff05::1:3]:5353/', /multicast/],
  ['http://[1000::1]/', /outside the global unicast/],
  ['http://[1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]/', /outside the global unicast/],
  ['http://[e000::1]/', /outside the global unicast/],
  // every IPv4 range, first and last address
  ...V4_RANGE_EDGES.flatMap(([first, last, what]): [string, RegExp][] => [
    [`http://${first}/`, what],
    [`http://${last}:8080/some/path`, what],
  ]),
]

describe('blocked targets', () => {
  it('has at least 100 rows', () => {
    expect(BLOCKED.length).toBeGreaterThanOrEqual(100)
  })

  it.each(BLOCKED)('%s is refused', (url, what) => {
    const parsed = parseTargetUrl(url)
    const err = invalid(() => assertTargetAllowed(parsed, {}))
    expect(err.message).toMatch(/^Blocked for safety: /)
    expect(err.message).toMatch(what)
  })

  it.each(BLOCKED)('%s passes with allowPrivateTargets', (url) => {
    expect(() => check(url, true)).not.toThrow()
  })
})

// ---------------------------------------------------------------------------------------------

describe('public targets', () => {
  const PUBLIC = [
    'https://example.com/',
    'http://example.com',
    'https://www.example.com:8443/a/b?c=d#e',
    'http://93.184.215.14/',
    'http://8.8.8.8/',
    'http://1.1.1.1:8080/x',
    'http://223.255.255.255/',
    // the edges just outside blocked ranges
    'http://1.0.0.0/',
    'http://9.255.255.255/',
    'http://11.0.0.0/',
    'http://100.63.255.255/',
    'http://100.128.0.1/',
    'http://126.255.255.255/',
    'http://128.0.0.0/',
    'http://169.253.255.255/',
    'http://169.255.0.0/',
    'http://172.15.255.255/',
    'http://172.32.0.1/',
    'http://192.0.1.255/',
    'http://192.0.3.0/',
    'http://192.88.98.255/',
    'http://192.88.100.0/',
    'http://192.167.255.255/',
    'http://192.169.0.1/',
    'http://198.17.255.255/',
    'http://198.20.0.0/',
    'http://198.51.99.255/',
    'http://198.51.101.0/',
    'http://203.0.112.255/',
    'http://203.0.114.0/',
    'http://[2606:4700:4700::1111]/',
    'http://[2a00:1450:4001:81c::200e]/',
    'http://[2001:4860:4860::8888]:8080/',
    'http://[2000::1]/',
    'http://[2001:200::1]/',
    'http://[2001:db7:ffff::1]/',
    'http://[2001:db9::1]/',
    'http://[2003::1]/',
    'http://[2001:200:ffff::1]/',
    'http://[3fff:1000::1]/',
    'http://[3ffe::1]/',
    'http://[3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]/',
    // names that merely look local
    'http://localhost.example.com/',
    'http://mylocalhost/',
    'http://localhostx.example/',
    'http://127.0.0.1.example.com/',
    'http://0x7f.example/',
    'http://xn--bcher-kva.example/',
    'http://bücher.example/',
  ]
  it.each(PUBLIC)('%s is allowed', (url) => {
    expect(() => check(url)).not.toThrow()
  })

  it('returns the URL normalised by WHATWG URL', () => {
    const url = parseTargetUrl('  HTTPS://Example.COM:443/a?b#c  ')
    expect(url.href).toBe('https://example.com/a?b#c')
  })
})

// ---------------------------------------------------------------------------------------------

describe('malformed and unsupported input', () => {
  const long = `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`
  const MALFORMED: [string, unknown, RegExp][] = [
    ['empty string', '', /empty/],
    ['whitespace', '   \t\n', /empty/],
    ['null', null, /must be a string \(got null\)/],
    ['undefined', undefined, /must be a string/],
    ['number', 42, /must be a string \(got number\)/],
    ['object', { url: 'https://example.com' }, /must be a string/],
    ['array', ['https://example.com'], /must be a string/],
    ['no scheme', 'example.com', /no scheme/],
    ['no scheme, path', 'example.com/path', /no scheme/],
    ['scheme-relative', '//example.com/', /no scheme/],
    ['host:port without scheme', 'localhost:8080', /Only http and https/],
    ['http:// alone', 'http://', /no host name/],
    ['https:// alone', 'https://', /no host name/],
    ['empty host with path', 'http:///path', /no host name/],
    ['empty host with query', 'http://?q=1', /no host name/],
    ['only dots as host', 'http://./', /no host name/],
    ['only dots as host (2)', 'http://../x', /no host name/],
    ['missing slashes', 'http:example.com', /followed by \/\//],
    ['one slash', 'http:/example.com', /followed by \/\//],
    ['backslashes', 'http:\\\\example.com', /followed by \/\//],
    ['ftp', 'ftp://example.com', /^Only http and https URLs can be checked \(got ftp:\)$/],
    ['javascript', 'javascript:alert(1)', /got javascript:/],
    ['file', 'file:///etc/passwd', /got file:/],
    ['data', 'data:text/html,hi', /got data:/],
    ['gopher', 'gopher://example.com:70/', /got gopher:/],
    ['ws', 'ws://example.com/', /got ws:/],
    ['wss', 'wss://example.com/', /got wss:/],
    ['mailto', 'mailto:someone@example.com', /got mailto:/],
    ['blob', 'blob:https://example.com/uuid', /got blob:/],
    ['space in host', 'http://exa mple.com/', /malformed/],
    ['unclosed bracket', 'http://[::1/', /malformed/],
    ['bad IPv6', 'http://[1::2::3]/', /malformed/],
    ['zone id', 'http://[fe80::1%25eth0]/', /malformed/],
    ['port out of range', 'http://example.com:99999/', /malformed/],
    ['port not a number', 'http://example.com:port/', /malformed/],
    ['five-part IPv4', 'http://1.2.3.4.5/', /malformed/],
    ['IPv4 out of range', 'http://4294967296/', /malformed/],
    ['port 0', 'http://example.com:0/', /Port 0/],
    ['2049 characters', long, /^The URL is longer than 2048 characters$/],
    [
      'user and password',
      'http://user:pass@example.com/',
      /^URLs with a username or password are not accepted$/,
    ],
    ['user only', 'http://user@example.com/', /username or password/],
    ['password only', 'http://:pass@example.com/', /username or password/],
    ['empty userinfo', 'http://@example.com/', /username or password/],
    ['userinfo on a blocked host', 'http://admin:admin@127.0.0.1/', /username or password/],
    ['encoded @ in userinfo', 'https://user%40x@example.com/', /username or password/],
    ['userinfo spoofing a host', 'http://example.com@evil.test/', /username or password/],
  ]

  it.each(MALFORMED)('%s is invalid_url', (_name, input, message) => {
    const err = invalid(() => parseTargetUrl(input))
    expect(err.message).toMatch(message)
  })

  it.each(MALFORMED)('%s is invalid_url even with allowPrivateTargets', (_name, input, message) => {
    expect(invalid(() => check(input, true)).message).toMatch(message)
  })

  it('accepts a URL of exactly 2048 characters', () => {
    const url = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`
    expect(url).toHaveLength(2048)
    expect(parseTargetUrl(url).href).toBe(url)
  })

  it('refuses a URL that grows past 2048 characters when normalised', () => {
    const url = `https://example.com/${'é'.repeat(1000)}`
    expect(url.length).toBeLessThanOrEqual(2048)
    expect(invalid(() => parseTargetUrl(url)).message).toMatch(/longer than 2048 characters once normalised/)
  })

  it('assertTargetAllowed re-checks scheme and userinfo of URLs built elsewhere', () => {
    expect(invalid(() => assertTargetAllowed(new URL('ftp://example.com/'), {})).message).toMatch(/got ftp:/)
    expect(
      invalid(() => assertTargetAllowed(new URL('http://u:p@example.com/'), { allowPrivateTargets: true }))
        .message,
    ).toMatch(/username/)
  })
})

// ---------------------------------------------------------------------------------------------

describe('isBlockedAddress (DNS answers)', () => {
  const ROWS: [string, boolean][] = [
    ['93.184.215.14', false],
    ['8.8.8.8', false],
    ['2606:4700:4700::1111', false],
    ['2606:4700:4700:0:0:0:0:1111', false],
    ['2A00:1450:4001:081C::200E', false],
    ['[2606:4700:4700::1111]', false],
    ['10.0.0.5', true],
    ['127.0.0.1', true],
    ['169.254.169.254', true],
    ['::1', true],
    ['::', true],
    ['::ffff:8.8.8.8', true],
    ['::ffff:7f00:1', true],
    ['64:ff9b::808:808', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['2606:4700::1%1', true],
    ['fd00::1', true],
    ['2001:db8::1', true],
    // does not parse: fail closed
    ['', true],
    ['garbage', true],
    ['example.com', true],
    ['0177.0.0.1', true],
    ['127.1', true],
    ['0x7f000001', true],
    ['2130706433', true],
    ['1.2.3.256', true],
    ['1.2.3.4.', true],
    [' 8.8.8.8', true],
    ['1:2:3:4:5:6:7:8:9', true],
    ['1:2:3:4:5:6:7', true],
    ['1::2::3', true],
    [':::1', true],
    ['12345::', true],
    ['2606:4700::1111:', true],
    [':2606:4700::1111', true],
    ['::ffff:1.2.3', true],
    ['::ffff:1.2.3.4:5', true],
    ['1.2.3.4::', true],
    ['2606:4700:4700::1111]', true],
    ['g::1', true],
  ]
  it.each(ROWS)('%j blocked: %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked)
  })

  it('fails closed on non-strings', () => {
    expect(isBlockedAddress(undefined as unknown as string)).toBe(true)
    expect(isBlockedAddress(2130706433 as unknown as string)).toBe(true)
  })

  it('names the reason', () => {
    expect(blockedAddressReason('127.0.0.1')).toMatch(/loopback/)
    expect(blockedAddressReason('::ffff:10.0.0.1')).toMatch(/IPv4-mapped.*10\.0\.0\.1/)
    expect(blockedAddressReason('fe80::1%eth0')).toMatch(/zone id/)
    expect(blockedAddressReason('8.8.8.8')).toBeNull()
  })
})

describe('IP parsers', () => {
  it('parses IPv4 strictly', () => {
    expect(parseIPv4('0.0.0.0')).toBe(0)
    expect(parseIPv4('255.255.255.255')).toBe(0xffffffff)
    expect(parseIPv4('127.0.0.1')).toBe(0x7f000001)
    expect(parseIPv4('01.2.3.4')).toBeNull()
    expect(parseIPv4('1.2.3')).toBeNull()
    expect(parseIPv4('1.2.3.-4')).toBeNull()
  })

  it('parses IPv6 with compression and IPv4 tails', () => {
    expect(parseIPv6('::')).toBe(0n)
    expect(parseIPv6('::1')).toBe(1n)
    expect(parseIPv6('1::')).toBe(1n << 112n)
    expect(parseIPv6('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe((1n << 128n) - 1n)
    expect(parseIPv6('::ffff:127.0.0.1')).toBe(0xffff7f000001n)
    expect(parseIPv6('::ffff:127.0.0.1')).toBe(parseIPv6('0:0:0:0:0:ffff:7f00:1'))
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toBe(parseIPv6('1:2:3:4:5:6:102:304'))
    expect(parseIPv6('1:2:3:4:5:6:7::')).toBe(parseIPv6('1:2:3:4:5:6:7:0'))
    expect(parseIPv6('::2:3:4:5:6:7:8')).toBe(parseIPv6('0:2:3:4:5:6:7:8'))
    expect(parseIPv6('1:2:3:4:5:6:7:8::')).toBeNull()
    expect(parseIPv6('1:2:3:4:5:6:7:1.2.3.4')).toBeNull()
    expect(parseIPv6('[::1]')).toBeNull()
    expect(parseIPv6('fe80::1%eth0')).toBeNull()
  })
})
