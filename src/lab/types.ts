export * from '../checks/lab-outcome.js'
