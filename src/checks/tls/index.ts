export { readLeafFacts, type LeafFacts } from './certificate.js'
export { isProtocolVersionError, LEGACY_TLS } from './legacy.js'
export { scanHandshakes, type ScanOptions } from './scan.js'
