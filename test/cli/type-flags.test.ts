/**
 * `monitors create`'s type flags come from the types' faces (src/contract/monitor-types/): the
 * flags, the type they pick, a type's flags refused without it, and the body they make.
 */
import { describe, expect, it } from 'vitest'
import { UsageError } from '../../src/cli/errors.js'
import { pickedType, typeBody, typeFlags, typeSwitches } from '../../src/cli/type-flags.js'
import { typeFaces } from '../../src/contract/monitor-types/index.js'
import MonitorsCreate from '../../src/commands/monitors/create.js'

describe('monitor type flags', () => {
  it('declares every flag of every face on `monitors create`', () => {
    const declared = typeFaces().flatMap((f) => (f.cli ? [f.cli.flag, ...f.cli.flags] : []))
    expect(declared.length).toBeGreaterThan(0)
    for (const flag of declared) {
      expect(typeFlags[flag.name]).toBeDefined()
      expect(MonitorsCreate.flags).toHaveProperty(flag.name)
    }
    expect(typeSwitches).toContain('--heartbeat')
  })

  it('picks the type its flag names, refuses its other flags without it, and reads them into the body', () => {
    expect(pickedType({})).toBeUndefined()
    expect(pickedType({ heartbeat: false })).toBeUndefined()
    expect(() => pickedType({ grace: '1m' })).toThrow(
      new UsageError('--grace is for heartbeat monitors (--heartbeat).'),
    )
    const type = pickedType({ heartbeat: true, grace: '10m' })!
    expect(type.type).toBe('heartbeat')
    expect(typeBody(type, { heartbeat: true, grace: '10m' })).toEqual({
      type: 'heartbeat',
      grace_seconds: 600,
    })
    expect(typeBody(type, { heartbeat: true, grace: '0' })).toEqual({ type: 'heartbeat', grace_seconds: 0 })
    expect(typeBody(type, { heartbeat: true })).toEqual({ type: 'heartbeat' })
    expect(() => typeBody(type, { heartbeat: true, grace: 'soon' })).toThrow(
      new UsageError('--grace "soon" is not a duration: write 90s, 10m or 1h.'),
    )
  })
})
