export * from './run-for-user.js'
