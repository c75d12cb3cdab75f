#!/usr/bin/env node
import { execute, settings } from '@oclif/core'

// The published entry point runs the compiled dist/ only: never look for TypeScript sources,
// whatever NODE_ENV says (under NODE_ENV=test oclif would otherwise go looking, and warn on stderr).
settings.enableAutoTranspile = false

await execute({ dir: import.meta.url })
