/** Small pieces shared by the store, monitors and the dashboard: no imports of the project's folders. */
export { DueHeap } from './due-heap.js'
export { deadline, type Deadline } from './deadline.js'
export * from './domain-error.js'
export * from './secret-box.js'
export * from './uuid7.js'
export { fillRandom, randomHex } from './random-pool.js'
export * from './units.js'
