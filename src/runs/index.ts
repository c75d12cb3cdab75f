/**
 * Runs: `execute` makes a check (guard, slot, engine, time limit; no store), `reserve` and
 * `settle` pay for it (credit, failure budget), and `runForUser` does both for the server.
 */
export * from './run-for-user.js'
export * from './execute.js'
export * from './settle.js'
export * from './refusal.js'
export * from './failure-budget.js'
export * from './record.js'
export * from './probe.js'
