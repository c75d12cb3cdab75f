export { readPage, cssImports, type ReadPageOptions } from './read.js'
export { decodeHtml, isHtml, isTextual } from './decode.js'
export type * from './types.js'
