// Writes schema/sitehealth.schema.json from the zod shape of the file (src/contract/file-schema.ts),
// so the schema editors use and the API's own validation come from one declaration. Run by `npm run build`.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileJsonSchema } from '../dist/contract/file-schema.js'

const out = join(import.meta.dirname, '..', 'schema', 'sitehealth.schema.json')
writeFileSync(out, `${JSON.stringify(fileJsonSchema(), null, 2)}\n`)
