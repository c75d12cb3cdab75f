/** Reading a JSON request body with a size cap; every failure is a clear 400 in the envelope. */
import type { H3Event } from 'h3'
import type { z } from 'zod'
import { MAX_BODY_BYTES } from '../contract/routes.js'
import { badRequest } from './errors.js'

export async function readJson(event: H3Event, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const type = event.req.headers.get('content-type') ?? ''
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type))
    throw badRequest('The request body must be JSON: send `Content-Type: application/json`.')
  const declared = Number(event.req.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) throw badRequest(`The request body is larger than ${maxBytes / 1024} KiB.`)
  const stream = event.req.body
  if (!stream) throw badRequest('A JSON request body is required.')
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw badRequest(`The request body is larger than ${maxBytes / 1024} KiB.`)
    }
    chunks.push(value)
  }
  const text = Buffer.concat(chunks).toString('utf8')
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
