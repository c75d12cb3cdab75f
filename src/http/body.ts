/** Reading a JSON request body with a size cap; every failure is a clear 400 in the envelope. */
import type { H3Event } from 'h3'
import type { z } from 'zod'
import { MAX_BODY_BYTES } from '../contract/routes.js'
import { badRequest } from './errors.js'

/** How much of an oversized body is read and thrown away so the client can read its 400. */
const DRAIN_BYTES = 1024 * 1024
const DRAIN_MS = 5_000

/**
 * A request body, or 'too_large' past maxBytes (never buffered whole). Past the cap the rest is
 * read and discarded, up to DRAIN_BYTES or DRAIN_MS: closing a socket that still has unread data
 * makes the kernel send a reset, and a client still sending its body would then get ECONNRESET
 * instead of the refusal. A body larger than that is cut off.
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array> | null | undefined,
  maxBytes: number,
): Promise<Buffer | null | 'too_large'> {
  if (!stream) return null
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return Buffer.concat(chunks)
    size += value.byteLength
    if (size > maxBytes) break
    chunks.push(value)
  }
  chunks.length = 0
  let drained = 0
  const deadline = Date.now() + DRAIN_MS
  let timer: NodeJS.Timeout | undefined
  try {
    while (drained <= DRAIN_BYTES) {
      const left = deadline - Date.now()
      if (left <= 0) break
      const next = await Promise.race([
        reader.read(),
        new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), left))),
      ])
      clearTimeout(timer)
      if (next === 'late') break
      if (next.done) return 'too_large'
      drained += next.value.byteLength
    }
  } catch {
    return 'too_large'
  }
  await reader.cancel().catch(() => {})
  return 'too_large'
}

export async function readJson(event: H3Event, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const type = event.req.headers.get('content-type') ?? ''
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type))
    throw badRequest('The request body must be JSON: send `Content-Type: application/json`.')
  const declared = Number(event.req.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) throw badRequest(`The request body is larger than ${maxBytes / 1024} KiB.`)
  const bytes = await readCapped(event.req.body, maxBytes)
  if (bytes === 'too_large') throw badRequest(`The request body is larger than ${maxBytes / 1024} KiB.`)
  const text = bytes?.toString('utf8') ?? ''
  if (!text.trim()) throw badRequest('A JSON request body is required.')
  try {
    return JSON.parse(text)
  } catch {
    throw badRequest('The request body is not valid JSON.')
  }
}

/** Validate with a contract schema; the first issue becomes the message. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value)
  if (r.success) return r.data
  const issue = r.error.issues[0]
  const where = issue.path.length ? ` (${issue.path.join('.')})` : ''
  throw badRequest(`Invalid ${what}${where}: ${issue.message}`)
}
