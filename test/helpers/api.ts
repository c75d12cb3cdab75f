/**
 * The public API as the end-to-end suites call it beside the CLI: a request with a key, its status
 * and JSON body (null for 204), and a poll until something holds.
 */
export interface ApiAnswer {
  status: number
  body: any
}

/** One request to the public API at `base` with `key`. */
export async function callApi(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer> {
  const res = await fetch(`${base}/api/public/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

export function publicApi(baseUrl: () => string, key: () => string) {
  return (method: string, path: string, body?: unknown, k = key()): Promise<ApiAnswer> =>
    callApi(baseUrl(), k, method, path, body)
}

export async function waitFor(fn: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await fn()) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`timed out waiting for ${what}`)
}
