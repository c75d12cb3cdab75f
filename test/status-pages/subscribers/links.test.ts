/** The signed subscriber links: only the exact token that was issued opens. */
import { describe, expect, it } from 'vitest'
import { LinkSigner } from '../../../src/status-pages/index.js'

const signer = new LinkSigner('a-secret-key-for-tests')
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

describe('subscriber links', () => {
  it('opens the token it issued', () => {
    const token = signer.confirmToken('page-1', 'reader@example.test')
    expect(signer.open(token, 'confirm')).toMatchObject({ p: 'page-1', e: 'reader@example.test' })
  })

  it('refuses every other spelling of the signature, also those that decode to the same bytes', () => {
    // A 32-byte MAC is 43 base64url characters whose last one carries 2 unused bits: before the
    // fix, a last character changed only in those bits (A→B, E→F, …) still opened, so a test that
    // tampered with the last character passed or failed by chance.
    for (let i = 0; i < 40; i++) {
      const token = signer.unsubscribeToken('page-1', `sub-${i}`)
      const [data, sig] = token.split('.')
      for (const at of [0, sig.length - 1]) {
        for (const c of ALPHABET) {
          if (c === sig[at]) continue
          const other = `${data}.${sig.slice(0, at)}${c}${sig.slice(at + 1)}`
          expect(signer.open(other, 'unsubscribe')).toBe('invalid')
        }
      }
      expect(signer.open(`${data}.${sig}=`, 'unsubscribe')).toBe('invalid')
      expect(signer.open(`${data}=.${sig}`, 'unsubscribe')).toBe('invalid')
    }
  })

  it('refuses a token of the other kind, an expired one and junk', () => {
    const confirm = signer.confirmToken('p', 'a@example.test', Date.now() - 8 * 86_400_000)
    expect(signer.open(confirm, 'confirm')).toBe('expired')
    expect(signer.open(confirm, 'unsubscribe')).toBe('invalid')
    for (const junk of ['', '.', 'a.b', 'a.b.c', 'x'.repeat(3000)])
      expect(signer.open(junk, 'confirm')).toBe('invalid')
  })
})
