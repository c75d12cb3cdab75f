export { readPage, cssImports, type ReadPageOptions } from './read.js'
export { decodeHtml, isHtml } from './decode.js'
export type * from './types.js'
