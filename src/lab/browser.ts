/**
 * A warm Chromium for a lab slot: started once with chrome-launcher (its own temporary profile,
 * killed with its process tree on close), driven by the slot's worker through puppeteer-core,
 * started again when it dies. Every run gets a fresh browser context (an incognito-like profile:
 * its own cookies, storage, cache and service workers), closed after the run, so nothing carries
 * from one page to the next (src/lab/lighthouse-run.ts).
 */
import { existsSync } from 'node:fs'
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

export function chromeFlags(proxyAddress: string): string[] {
  return [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-extensions',
    '--disable-sync',
    '--no-first-run',
    '--mute-audio',
    // every request through the guarded proxy, loopback included (Chromium bypasses it by default)
    `--proxy-server=http://${proxyAddress}`,
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--disable-quic',
  ]
}

export interface WarmBrowser {
  /** Where a worker connects (puppeteer's browserURL): http://127.0.0.1:PORT. */
  browserURL: string
  /** Chromium's main process id (the root of the tree the bench measures). */
  pid: number
  /** False once the browser has crashed or been closed. */
  alive(): boolean
  /** Calls `fn` once when the browser's process ends (at once if it already has). */
  onExit(fn: () => void): void
  offExit(fn: () => void): void
  close(): Promise<void>
}

export async function launchBrowser(path: string, proxyAddress: string): Promise<WarmBrowser> {
  const chrome = await chromeLauncher.launch({
    chromePath: path,
    chromeFlags: chromeFlags(proxyAddress),
    logLevel: 'silent',
    handleSIGINT: false,
  })
  let alive = true
  const exited = new Set<() => void>()
  chrome.process.once('exit', () => {
    alive = false
    for (const fn of exited) fn()
    exited.clear()
  })
  return {
    browserURL: `http://127.0.0.1:${chrome.port}`,
    pid: chrome.pid,
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
      chrome.kill()
    },
  }
}
