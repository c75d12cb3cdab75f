/**
 * The JSON Schema of sitehealth.yaml, as an editor uses it: a file with `${VAR}` placeholders in
 * its channels validates (it did not: an email channel's `to: ${ALERT_EMAIL}` was refused), and
 * the modeline `pull` writes points at the server, never at a package registry.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { fileJsonSchema, schemaUrl } from '../../src/contract/file-schema.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  const validate = ajv.compile(fileJsonSchema())
  return (text: string) =>
    validate(parse(text)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
}

const FILE = (to: string, url: string) => `
channels:
  oncall: { type: email, to: "${to}" }
  ops: { type: slack, url: "${url}" }
monitors:
  - ref: shop
    url: https://shop.example.com/
    channels: [oncall, ops]
`

describe('the sitehealth.yaml schema', () => {
  it('takes ${VAR} placeholders wherever a channel value may hold one', () => {
    const check = validator()
    expect(check(FILE('${ALERT_EMAIL}', '${SLACK_URL}'))).toEqual([])
    expect(check(FILE('ops+${TEAM}@example.com', 'https://hooks.slack.com/${SLACK_PATH}'))).toEqual([])
    expect(check(FILE('ops@example.com', 'https://hooks.slack.com/services/T0/B0/X'))).toEqual([])
  })

  it('still refuses what is neither a value nor a placeholder', () => {
    const check = validator()
    expect(check(FILE('not an address', 'https://hooks.slack.com/x'))).not.toEqual([])
    expect(check(FILE('${lower case}', 'https://hooks.slack.com/x'))).not.toEqual([])
  })

  it('is served by the server a file is deployed to', () => {
    expect(schemaUrl('https://mon.example.com/')).toBe(
      'https://mon.example.com/schema/sitehealth.schema.json',
    )
    expect(JSON.stringify(fileJsonSchema())).not.toMatch(/unpkg|jsdelivr|npmjs/)
  })
})
