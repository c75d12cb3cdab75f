/** One check run for a user: reserve a credit and a slot, run, save the record, charge or refund. */
export * from './run-for-user.js'
export * from './failure-budget.js'
export * from './record.js'
