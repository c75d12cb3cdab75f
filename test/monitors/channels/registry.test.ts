/** The registry: every provider the contract names has its sending half, and the faces agree. */
import { describe, expect, it } from 'vitest'
import { CHANNEL_PROVIDERS, CHANNEL_TYPES, ChannelRequest } from '../../../src/contract/channels.js'
import { PROVIDERS } from '../../../src/monitors/channels/providers/index.js'

describe('alert provider registry', () => {
  it('has one provider module per contract type, and no other', () => {
    expect(Object.keys(PROVIDERS).sort()).toEqual([...CHANNEL_TYPES].sort())
    for (const t of CHANNEL_TYPES) expect(PROVIDERS[t].type).toBe(t)
  })

  it('builds the request union from the faces: one member per provider, with its fields', () => {
    for (const t of CHANNEL_TYPES) {
      const face = CHANNEL_PROVIDERS[t]
      expect(Object.keys(face.fields)).toContain(face.target)
      const member = ChannelRequest.options.find((o) => o.shape.type.value === t)!
      expect(Object.keys(member.shape).sort()).toEqual(
        ['name', 'source', 'type', ...Object.keys(face.fields)].sort(),
      )
    }
  })

  it('marks every URL field a secret', () => {
    for (const t of CHANNEL_TYPES)
      for (const f of Object.values(CHANNEL_PROVIDERS[t].fields) as Array<{ label: string; secret: boolean }>)
        if (f.label === 'URL') expect(f.secret).toBe(true)
  })
})
