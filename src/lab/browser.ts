/**
 * A warm Chromium for a lab slot: started once with @puppeteer/browsers (its own temporary
 * profile, removed when it exits; its process group killed on close), started again when it dies.
 * The slot's worker drives it through puppeteer-core over a pipe (`--remote-debugging-pipe`): no
 * DevTools port is open for another local process to find. The pipe belongs to this thread, so
 * `connect()` hands the worker a MessagePort whose messages are relayed to and from it. Every run
 * gets a fresh browser context (an incognito-like profile: its own cookies, storage, cache and
 * service workers), closed after the run, so nothing carries from one page to the next
 * (src/lab/lighthouse-run.ts).
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { MessageChannel, type MessagePort } from 'node:worker_threads'
import { launch } from '@puppeteer/browsers'
import * as chromeLauncher from 'chrome-launcher'

/** Where `--lab-browser auto` looks (Debian's chromium first, then the usual names), after $CHROME_PATH. */
const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
]

/** `auto`: $CHROME_PATH, the usual install paths, then chrome-launcher's own search; null when none is found. */
export function findChromium(): string | null {
  const fromEnv = process.env.CHROME_PATH
  if (fromEnv && existsSync(fromEnv)) return fromEnv
  const known = CANDIDATES.find((p) => existsSync(p))
  if (known) return known
  try {
    return chromeLauncher.getChromePath()
  } catch {
    return null
  }
}

export interface LaunchSpec {
  path: string
  /** The guarded proxy (src/lab/proxy.ts), `127.0.0.1:PORT`. */
  proxyAddress: string
  /** Keep Chromium's sandbox (src/lab/sandbox.ts decides). */
  sandbox: boolean
}

export function chromeFlags(spec: Omit<LaunchSpec, 'path'>, profileDir: string): string[] {
  return [
    // chrome-launcher's defaults, as Lighthouse's own runs have them (no background work, no first-run UI)
    ...chromeLauncher.Launcher.defaultFlags(),
    '--headless=new',
    ...(spec.sandbox ? [] : ['--no-sandbox']),
    '--remote-debugging-pipe',
    `--user-data-dir=${profileDir}`,
    '--disable-gpu',
    // every request through the guarded proxy, loopback included (Chromium bypasses it by default)
    `--proxy-server=http://${spec.proxyAddress}`,
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--disable-quic',
  ]
}

export interface WarmBrowser {
  /** Chromium's main process id (the root of the tree the bench measures). */
  pid: number
  /** A new link to the browser's DevTools pipe, for a worker's puppeteer; the previous one is closed. */
  connect(): MessagePort
  /** False once the browser has crashed or been closed. */
  alive(): boolean
  /** Calls `fn` once when the browser's process ends (at once if it already has). */
  onExit(fn: () => void): void
  offExit(fn: () => void): void
  close(): Promise<void>
}

/** How long a new browser may take to answer on its pipe. */
const START_TIMEOUT_MS = 30_000

export async function launchBrowser(spec: LaunchSpec): Promise<WarmBrowser> {
  const profileDir = await mkdtemp(join(tmpdir(), 'sitehealth-lab-'))
  const browser = launch({
    executablePath: spec.path,
    args: chromeFlags(spec, profileDir),
    env: browserEnv(),
    pipe: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
  const child = browser.nodeProcess
  const toBrowser = child.stdio[3] as Writable
  const fromBrowser = child.stdio[4] as Readable
  let alive = true
  let link: MessagePort | null = null
  let onStartup: (message: string) => void = () => {}
  const exited = new Set<() => void>()
  child.once('exit', () => {
    // the profile goes once the browser has stopped writing to it
    void rm(profileDir, { recursive: true, force: true }).catch(() => {})
    alive = false
    link?.close()
    for (const fn of exited) fn()
    exited.clear()
  })
  toBrowser.on('error', () => {})
  fromBrowser.on('error', () => {})
  readMessages(fromBrowser, (message) => (link ? link.postMessage(message) : onStartup(message)))

  // the browser is up once it answers on its pipe (a wrong path or a refused sandbox fails here)
  const answered = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('it did not answer within 30 s')), START_TIMEOUT_MS)
    const fail = (why: string) => {
      clearTimeout(timer)
      const said = browser.getRecentLogs().find((l) => /error|not supported/i.test(l))
      reject(new Error(said ? `${why}: ${said.replace(/^\[[^\]]*\]\s*/, '')}` : why))
    }
    child.once('error', (err) => fail(err.message))
    child.once('exit', (code) => fail(`it exited (code ${code})`))
    onStartup = (message) => {
      if ((JSON.parse(message) as { id?: number }).id !== 0) return
      clearTimeout(timer)
      resolve()
    }
  })
  toBrowser.write(`${JSON.stringify({ id: 0, method: 'Browser.getVersion' })}\0`)
  try {
    await answered
  } catch (err) {
    // kill, not close: close waits for an exit that a browser which never started does not give
    if (child.exitCode === null && child.pid !== undefined) browser.kill()
    await rm(profileDir, { recursive: true, force: true }).catch(() => {})
    throw err
  }
  onStartup = () => {}

  return {
    pid: child.pid!,
    connect() {
      link?.close()
      const { port1, port2 } = new MessageChannel()
      port1.on('message', (message: string) => {
        if (alive) toBrowser.write(`${message}\0`)
      })
      link = port1
      return port2
    },
    alive: () => alive,
    onExit(fn) {
      if (alive) exited.add(fn)
      else fn()
    },
    offExit(fn) {
      exited.delete(fn)
    },
    async close() {
      alive = false
      link?.close()
      await browser.close().catch(() => {})
    },
  }
}

/** What the browser inherits from serve's environment: enough to run, no secrets. */
function browserEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of [
    'PATH',
    'HOME',
    'TMPDIR',
    'LANG',
    'LC_ALL',
    'TZ',
    'XDG_RUNTIME_DIR',
    'FONTCONFIG_PATH',
  ]) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  return env
}

/** The DevTools pipe speaks JSON messages, each ended by a NUL byte. */
function readMessages(stream: Readable, onMessage: (message: string) => void): void {
  let pending: Buffer[] = []
  stream.on('data', (chunk: Buffer) => {
    let start = 0
    let end = chunk.indexOf(0)
    while (end !== -1) {
      pending.push(chunk.subarray(start, end))
      onMessage(Buffer.concat(pending).toString('utf8'))
      pending = []
      start = end + 1
      end = chunk.indexOf(0, start)
    }
    if (start < chunk.length) pending.push(chunk.subarray(start))
  })
}
