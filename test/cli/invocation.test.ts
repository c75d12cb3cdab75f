/**
 * Hints name the CLI the way this user can run it (issue 21): `sitehealth` only when that name on
 * PATH is this install, `npx sitehealth` under npx, else `node <path>`.
 */
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invocation } from '../../src/cli/invocation.js'

let dir: string
let script: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitehealth-invocation-'))
  await mkdir(join(dir, 'clone', 'bin'), { recursive: true })
  script = join(dir, 'clone', 'bin', 'run.js')
  await writeFile(script, '#!/usr/bin/env node\n')
  await chmod(script, 0o755)
  await mkdir(join(dir, 'global'))
  await symlink(script, join(dir, 'global', 'sitehealth'))
  await mkdir(join(dir, 'other'))
  await writeFile(join(dir, 'other', 'sitehealth'), '#!/bin/sh\n')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const run = (PATH: string, cwd = dir, extra: NodeJS.ProcessEnv = {}) =>
  invocation({ bin: 'sitehealth', script, cwd, env: { PATH, ...extra } })

describe('invocation', () => {
  it('is the bare name when PATH finds this very install', () => {
    expect(run(`/nonexistent:${join(dir, 'global')}`)).toBe('sitehealth')
  })

  it('is node with the script when the name is absent or another install comes first', () => {
    expect(run('/usr/bin:/bin', join(dir, 'clone'))).toBe('node bin/run.js')
    expect(run(`${join(dir, 'other')}:${join(dir, 'global')}`, join(dir, 'clone'))).toBe('node bin/run.js')
    expect(run('/usr/bin', join(dir, 'global'))).toBe(`node ${script}`)
  })

  it('is npx for an install in the npx cache or a node_modules, unless PATH finds it', async () => {
    const cached = join(dir, '_npx', 'abc', 'node_modules', 'sitehealth', 'bin')
    await mkdir(cached, { recursive: true })
    await writeFile(join(cached, 'run.js'), '')
    const npx = (PATH: string) =>
      invocation({ bin: 'sitehealth', script: join(cached, 'run.js'), cwd: dir, env: { PATH } })
    expect(npx('/usr/bin')).toBe('npx sitehealth')
    // npm_command is inherited by whatever npx starts: it decides nothing
    expect(run('/usr/bin', join(dir, 'clone'), { npm_command: 'exec' })).toBe('node bin/run.js')
  })
})
