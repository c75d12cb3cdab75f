import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { meterBody, STALL_WIRE_BYTES } from '../../src/checks/body-meter.js'

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** Empty non-final stored deflate blocks: consumed by an inflater, decoded to nothing. */
const EMPTY_BLOCKS = Buffer.concat(Array.from({ length: 13_107 }, () => Buffer.from([0, 0, 0, 0xff, 0xff])))

/** An endless (but bounded, for safety) stream: `head`, then `chunk` up to `limit` bytes; counts what was pulled. */
function stream(head: Buffer, chunk: Buffer, limit: number) {
  const pulled = { bytes: 0 }
  const body = Readable.from(
    (function* () {
      pulled.bytes += head.length
      yield head
      while (pulled.bytes < limit) {
        pulled.bytes += chunk.length
        yield chunk
      }
    })(),
  )
  return { body, pulled }
}

describe('meterBody', () => {
  it('stops a gzip body of endless empty deflate blocks after little wire, not at the time budget', async () => {
    const { body, pulled } = stream(GZIP_HEADER, EMPTY_BLOCKS, 256 * 2 ** 20)
    const count = await meterBody(body, 'gzip', 4 * 2 ** 20, AbortSignal.timeout(20_000))
    expect(count.decoded).toBe(0)
    expect(count.truncated).toBe(true)
    expect(count.interruption).toBeNull()
    expect(count.wire).toBeLessThanOrEqual(STALL_WIRE_BYTES + 2 * EMPTY_BLOCKS.length)
    expect(pulled.bytes).toBeLessThan(8 * 2 ** 20)
  })

  it('caps bytes on the wire even when the inflater keeps making a little progress', async () => {
    // each chunk: empty blocks plus one tiny stored block of 1 byte, so output never stalls
    const tiny = Buffer.from([0, 1, 0, 0xfe, 0xff, 0x61])
    const chunk = Buffer.concat([EMPTY_BLOCKS.subarray(0, 60_000), tiny])
    const { body, pulled } = stream(GZIP_HEADER, chunk, 256 * 2 ** 20)
    const count = await meterBody(body, 'gzip', 4 * 2 ** 20, AbortSignal.timeout(20_000))
    expect(count.truncated).toBe(true)
    expect(count.decoded).toBeGreaterThan(0)
    expect(count.decoded).toBeLessThan(1000)
    expect(count.wire).toBeLessThanOrEqual(4 * 2 ** 20 + chunk.length)
    expect(pulled.bytes).toBeLessThan(8 * 2 ** 20)
  })

  it('still counts an honest compressed page in full', async () => {
    const page = Buffer.from('<!doctype html><p>hello</p>\n'.repeat(40_000))
    const gz = gzipSync(page)
    const count = await meterBody(Readable.from([gz]), 'gzip', 4 * 2 ** 20, AbortSignal.timeout(5_000))
    expect(count).toMatchObject({
      wire: gz.length,
      decoded: page.length,
      truncated: false,
      interruption: null,
    })
  })
})
