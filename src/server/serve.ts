/**
 * Starting and stopping the API server: open the store (which locks the data dir), build the app,
 * listen on a plain node:http server through h3's `toNodeHandler`, and on close stop accepting,
 * let in-flight checks finish, then flush and unlock the store.
 *
 * Not listhen: it wraps every server in `http-shutdown`, whose `finish` handler throws (and
 * kills the process) when a client's socket is already gone, e.g. after an oversized chunked
 * body is refused; it also moves to another port when the one asked for is taken.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { toNodeHandler } from 'h3/node'
import { openStore } from '../store/index.js'
import { createApp, rawErrorResponse } from './app.js'
import { DEFAULT_LIMITS, type Limits, type ServerOptions } from './context.js'

export interface StartOptions {
  host: string
  port: number
  dataDir: string
  publicUrl?: string
  allowPrivateTargets?: boolean
  initialCredits?: number
  limits?: Partial<Limits>
  checkTimeoutMs?: number
  /** From SITEHEALTH_ADMIN_TOKEN; else read or generated in <data-dir>/admin-token. */
  adminToken?: string
  log?: (line: string) => void
}

export interface RunningServer {
  url: string
  adminTokenFile?: string
  close: (graceMs?: number) => Promise<void>
}

async function resolveAdminToken(
  dataDir: string,
  fromEnv?: string,
): Promise<{ token: string; file?: string }> {
  if (fromEnv) return { token: fromEnv }
  const file = join(dataDir, 'admin-token')
  try {
    const token = (await readFile(file, 'utf8')).trim()
    if (token) return { token, file }
  } catch {
    // first start: generate below
  }
  const token = `sha_admin_${randomBytes(24).toString('base64url')}`
  await writeFile(file, token + '\n', { mode: 0o600 })
  return { token, file }
}

export async function startServer(o: StartOptions): Promise<RunningServer> {
  await mkdir(o.dataDir, { recursive: true, mode: 0o700 })
  const store = await openStore(o.dataDir)
  try {
    const admin = await resolveAdminToken(o.dataDir, o.adminToken)
    const opts: ServerOptions = {
      store,
      initialCredits: o.initialCredits ?? 100,
      allowPrivateTargets: o.allowPrivateTargets ?? false,
      adminToken: admin.token,
      publicUrl: o.publicUrl,
      limits: { ...DEFAULT_LIMITS, ...o.limits },
      checkTimeoutMs: o.checkTimeoutMs ?? 15_000,
      log: o.log,
    }
    const { app, inFlight, limiter } = createApp(opts)
    const server = createServer(toNodeHandler(app))
    // what Node's parser refuses (unknown method, oversized headers) still gets the envelope
    server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      if (socket.writable && !(socket as { _httpMessage?: unknown })._httpMessage)
        socket.end(rawErrorResponse(err.code))
      else socket.destroy()
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(o.port, o.host, () => {
        server.off('error', reject)
        resolve()
      })
    })
    // Slow clients must not pin sockets forever.
    server.headersTimeout = 20_000
    server.requestTimeout = 60_000
    const maxWindow = Math.max(opts.limits.runWindowSec, opts.limits.apiWindowSec) * 1000
    const sweeper = setInterval(() => limiter.sweep(maxWindow), 60_000).unref()
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : o.port
    const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host
    let closing: Promise<void> | undefined
    return {
      url: `http://${hostForUrl}:${port}`,
      adminTokenFile: admin.file,
      close(graceMs = 20_000) {
        closing ??= (async () => {
          clearInterval(sweeper)
          const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
          server.closeIdleConnections()
          // Running checks finish and their responses are written; the server then closes by itself
          // (a closing server ends keep-alive connections after their response). Only past the
          // grace period are the remaining connections cut.
          const grace = new Promise((r) => setTimeout(r, graceMs).unref())
          await Promise.race([Promise.allSettled([...inFlight]).then(() => stopped), grace])
          server.closeAllConnections()
          await stopped
          await store.close()
        })()
        return closing
      },
    }
  } catch (err) {
    await store.close()
    throw err
  }
}
