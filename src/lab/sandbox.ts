/**
 * Whether the lab's Chromium can keep its sandbox, the browser's own wall between a hostile page
 * and the machine. Chromium sandboxes its renderers with unprivileged user namespaces, or with a
 * setuid `chrome-sandbox` helper where those are off; and it refuses to start as root with the
 * sandbox on. So: root → no sandbox; neither user namespaces nor the helper → no sandbox; else
 * the sandbox stays. `Lab.start` logs the reason once when it runs without.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'

export interface SandboxFacts {
  /** The process's user id (undefined where there is none, e.g. Windows). */
  uid: number | undefined
  /** Unprivileged user namespaces can be made here. */
  userNamespaces: boolean
  /** A `chrome-sandbox` owned by root with the setuid bit sits beside the browser. */
  setuidHelper: boolean
}

export type SandboxDecision = { sandbox: true } | { sandbox: false; why: string }

export function decideSandbox(facts: SandboxFacts): SandboxDecision {
  if (facts.uid === 0)
    return {
      sandbox: false,
      why: 'serve runs as root, and Chromium refuses its sandbox as root; run serve as an unprivileged user to keep it',
    }
  if (!facts.userNamespaces && !facts.setuidHelper)
    return {
      sandbox: false,
      why: 'this system allows no unprivileged user namespaces and has no setuid chrome-sandbox helper',
    }
  return { sandbox: true }
}

/** Reads the facts off this machine (Linux's /proc; elsewhere the sandbox is Chromium's own business). */
export function sandboxFacts(browserPath: string): SandboxFacts {
  const uid = process.getuid?.()
  if (process.platform !== 'linux') return { uid, userNamespaces: true, setuidHelper: false }
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8').trim()
    } catch {
      return null
    }
  }
  const userNamespaces =
    read('/proc/sys/user/max_user_namespaces') !== '0' &&
    read('/proc/sys/kernel/unprivileged_userns_clone') !== '0' &&
    read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') !== '1'
  return { uid, userNamespaces, setuidHelper: hasSetuidHelper(browserPath) }
}

function hasSetuidHelper(browserPath: string): boolean {
  const dirs = new Set<string>()
  try {
    dirs.add(dirname(realpathSync(browserPath)))
  } catch {
    // a path that does not resolve has no helper beside it
  }
  // Debian's /usr/bin/chromium is a script; the browser and its helper live in /usr/lib/chromium
  dirs.add('/usr/lib/chromium')
  return [...dirs].some((dir) => {
    try {
      const st = statSync(join(dir, 'chrome-sandbox'))
      return st.uid === 0 && (st.mode & 0o4000) !== 0
    } catch {
      return false
    }
  })
}
