/**
 * Lab tests need a real Chromium (/usr/bin/chromium, or $CHROME_PATH): without one they skip with
 * a one-line notice, except under CI, where they fail. Each Lighthouse run takes 5-30 s on the
 * shared machine, so the suites keep their runs few.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { findChromium } from '../../src/lab/index.js'
import { describeNeeding } from '../helpers/needs.js'

export const CHROMIUM = findChromium()

/** describe() when Chromium is found; else a one-line skip, or (CI set) a failing test. */
export function describeLab(name: string, fn: () => void): void {
  const missing = 'no Chromium found (/usr/bin/chromium, $CHROME_PATH; apt-get install -y chromium)'
  describeNeeding('Chromium', CHROMIUM ? undefined : missing, name, fn)
}

/** A loopback site for the lab; `seen` records request paths with the Cookie header they carried. */
export async function labSite(route: (req: IncomingMessage, res: ServerResponse) => boolean): Promise<{
  url: (path: string) => string
  seen: Array<{ path: string; cookie: string | null }>
  close: () => Promise<void>
}> {
  const seen: Array<{ path: string; cookie: string | null }> = []
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', cookie: req.headers.cookie ?? null })
    if (!route(req, res)) res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>lab</title>${head}</head><body>${body}</body></html>`
