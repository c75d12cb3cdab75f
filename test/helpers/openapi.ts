/** Validate response bodies against the schemas of our own /openapi.json (Ajv, JSON Schema 2020-12). */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { buildOpenApi } from '../../src/server/openapi/index.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
const BASE = 'https://sitehealth.test/openapi.json'

export function schemaValidator(doc: Record<string, any> = buildOpenApi()) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: BASE, components: doc.components })
  return (schemaId: string, body: unknown): string[] => {
    const validate = ajv.getSchema(`${BASE}#/components/schemas/${schemaId}`)
    if (!validate) throw new Error(`no schema ${schemaId}`)
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  }
}
