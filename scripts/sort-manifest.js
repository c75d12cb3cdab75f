// `oclif manifest` lists commands in the order its file walk finished, which differs from build to
// build; sorting them by id keeps the committed manifest stable (a rebuild changes nothing).
import { readFileSync, writeFileSync } from 'node:fs'

const path = new URL('../oclif.manifest.json', import.meta.url)
const manifest = JSON.parse(readFileSync(path, 'utf8'))
const ids = Object.keys(manifest.commands).sort()
manifest.commands = Object.fromEntries(ids.map((id) => [id, manifest.commands[id]]))
writeFileSync(path, JSON.stringify(manifest, null, 2) + '\n')
