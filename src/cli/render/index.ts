export * from './view.js'
export * from './table.js'
export * from './wrap.js'
export * from './format.js'
