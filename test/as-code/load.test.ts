/** Reading sitehealth.yaml: `${VAR}` in channels, substituted and then checked as the field's own value. */
import { describe, expect, it } from 'vitest'
import { loadText } from '../../src/as-code/index.js'

const FILE = `
channels:
  oncall: { type: email, to: "\${ALERT_EMAIL}" }
monitors:
  - ref: shop
    url: https://shop.example.com/
    channels: [oncall]
`

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadText(FILE, 'sitehealth.yaml', env)
    return []
  } catch (err) {
    return (err as { problems: string[] }).problems
  }
}

describe('channel placeholders', () => {
  it('takes an email address from the environment (refused as "not an email" before)', () => {
    const loaded = loadText(FILE, 'sitehealth.yaml', { ALERT_EMAIL: ' oncall@example.com ' })
    expect(loaded.channels.get('oncall')).toEqual({
      name: 'oncall',
      type: 'email',
      target: 'oncall@example.com',
      source: '${ALERT_EMAIL}',
    })
  })

  it('points at the line of a placeholder that is unset or whose value is not an address', () => {
    expect(problems({})).toEqual(['sitehealth.yaml:3:30: environment variable ALERT_EMAIL is not set'])
    const bad = problems({ ALERT_EMAIL: 'not-an-address' })
    expect(bad).toHaveLength(1)
    expect(bad[0]).toMatch(/^sitehealth\.yaml:3:30: .*\(the value of \$\{ALERT_EMAIL\}\)$/)
  })
})
