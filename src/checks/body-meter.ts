/**
 * Counts a response body two ways: bytes on the wire (undici's `request` hands the body over as
 * sent, still compressed) and bytes after Content-Encoding is undone with
 * node:zlib, streaming. Reading stops as soon as the decoded count reaches the cap, so a
 * decompression bomb costs at most the cap. Only the first `retainBytes` decoded bytes are kept
 * (the page reader's share); the rest is counted and dropped.
 *
 * Decoded is the same as wire for an identity body and for an encoding Node cannot undo (zstd on
 * Node 20, anything unknown, stacked codings): the size the server chose to send is then the best figure there is.
 * A body that fails to decode counts what decoded up to the fault.
 *
 * Bytes on the wire are capped too (by default at the decoded cap): a gzip body of endless empty
 * deflate blocks decodes to nothing, so a decoded cap alone let one check download 600 MiB. And an
 * inflater that has consumed `STALL_WIRE_BYTES` without producing a byte is stopped at once: no
 * honest encoder sends that much for nothing.
 */
import type { Duplex, Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'

export interface BodyCount {
  wire: number
  decoded: number
  /** Stopped at the cap, or cut short by the time budget / a dropped connection. */
  truncated: boolean
  /** Why reading ended early, other than the cap (abort, reset, corrupt encoding); null otherwise. */
  interruption: Error | null
  /** The first `retainBytes` decoded bytes, kept for the page reader (empty when none were asked for). */
  retained: Buffer
}

class CapReached extends Error {}

/**
 * Compressed input an inflater may consume without producing any output before it is stopped.
 * Deflate's worst case for real content is a stored block (5 bytes of framing per 64 KiB), and
 * brotli's is similar: 1 MiB without a single decoded byte is never a real page.
 */
export const STALL_WIRE_BYTES = 1024 * 1024

export async function meterBody(
  body: Readable,
  contentEncoding: string | null,
  maxDecodedBytes: number,
  signal: AbortSignal,
  retainBytes = 0,
  maxWireBytes: number = maxDecodedBytes,
): Promise<BodyCount> {
  const count: BodyCount = {
    wire: 0,
    decoded: 0,
    truncated: false,
    interruption: null,
    retained: Buffer.alloc(0),
  }
  const kept: Buffer[] = []
  let keptBytes = 0
  const retain = (chunk: Buffer) => {
    if (keptBytes >= retainBytes) return
    const part = chunk.subarray(0, retainBytes - keptBytes)
    kept.push(part)
    keptBytes += part.length
  }
  const decoder = decoderFor(contentEncoding)
  let wireAtLastOutput = 0

  const countWire = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      count.wire += chunk.length
      if (!decoder) {
        retain(chunk)
        capDecoded(chunk.length)
      } else if (count.wire >= maxWireBytes || count.wire - wireAtLastOutput > STALL_WIRE_BYTES) {
        count.truncated = true
        throw new CapReached()
      }
      yield chunk
    }
  }
  const capDecoded = (n: number) => {
    count.decoded += n
    if (count.decoded >= maxDecodedBytes) {
      count.decoded = Math.min(count.decoded, maxDecodedBytes)
      count.truncated = true
      throw new CapReached()
    }
  }
  const countDecoded = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source)
      if (decoder && chunk.length > 0) {
        wireAtLastOutput = count.wire
        retain(chunk)
        capDecoded(chunk.length)
      }
  }

  try {
    if (decoder) await pipeline(body, countWire, decoder, countDecoded, { signal })
    else await readIdentity(body, signal, countWire)
  } catch (err) {
    if (!(err instanceof CapReached)) {
      count.interruption = err instanceof Error ? err : new Error(String(err))
      // a body the server finished but we could not decode is complete on the wire
      if (!body.readableEnded) count.truncated = true
    }
  } finally {
    if (!body.destroyed) body.destroy()
  }
  if (keptBytes > 0) count.retained = Buffer.concat(kept, keptBytes)
  return count
}

/**
 * An identity body (most pages): `countWire` straight over the body, without stream.pipeline,
 * which sets up its own AbortController and aborts it (a DOMException made) at every body's end.
 * As pipeline does, an abort of `signal` destroys the body with an AbortError whose cause is the
 * reason, and the first error ends the read.
 */
async function readIdentity(
  body: Readable,
  signal: AbortSignal,
  countWire: (source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer>,
): Promise<void> {
  const onAbort = () => body.destroy(new AbortError(undefined, { cause: signal.reason }))
  if (signal.aborted) onAbort()
  else signal.addEventListener('abort', onAbort, { once: true })
  try {
    const chunks = countWire(body)
    while (!(await chunks.next()).done);
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** Node's own AbortError (the one stream.pipeline throws on an abort): name AbortError, code ABORT_ERR. */
class AbortError extends Error {
  override readonly name = 'AbortError'
  readonly code = 'ABORT_ERR'
  constructor(message = 'The operation was aborted', options?: { cause?: unknown }) {
    super(message, options)
  }
}

/**
 * A zlib stream undoing the Content-Encoding; null for identity, for an unknown coding and for a
 * stack of codings (`gzip, br`: allowed by RFC 9110, unseen in practice) — counted as sent then.
 */
function decoderFor(contentEncoding: string | null): Duplex | null {
  const codings = (contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c && c !== 'identity')
  if (codings.length !== 1) return null
  // lenient flushing, as browsers and curl are: a body cut before its trailer still counts
  switch (codings[0]) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(lenient)
    case 'deflate':
      return zlib.createInflate(lenient)
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
    default:
      return null
  }
}

const lenient: zlib.ZlibOptions = { finishFlush: zlib.constants.Z_SYNC_FLUSH }
