// Whether the lab's Chromium keeps its sandbox (src/lab/sandbox.ts): it does wherever the system
// allows it, and says why when it cannot.
import { describe, expect, it } from 'vitest'
import { decideSandbox, sandboxFacts } from '../../src/lab/sandbox.js'

describe('the lab browser sandbox', () => {
  it('keeps the sandbox for an unprivileged user with user namespaces or the setuid helper', () => {
    expect(decideSandbox({ uid: 1000, userNamespaces: true, setuidHelper: false })).toEqual({ sandbox: true })
    expect(decideSandbox({ uid: 1000, userNamespaces: false, setuidHelper: true })).toEqual({ sandbox: true })
    expect(decideSandbox({ uid: undefined, userNamespaces: true, setuidHelper: false })).toEqual({
      sandbox: true,
    })
  })

  it('runs without it as root, and says why', () => {
    const d = decideSandbox({ uid: 0, userNamespaces: true, setuidHelper: true })
    expect(d).toMatchObject({ sandbox: false, why: expect.stringMatching(/runs as root/) })
  })

  it('runs without it when neither user namespaces nor the helper exist, and says why', () => {
    const d = decideSandbox({ uid: 1000, userNamespaces: false, setuidHelper: false })
    expect(d).toMatchObject({ sandbox: false, why: expect.stringMatching(/no unprivileged user namespaces/) })
  })

  it("reads this machine's user id", () => {
    expect(sandboxFacts('/usr/bin/chromium').uid).toBe(process.getuid?.())
  })
})
