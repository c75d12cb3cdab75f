/**
 * The composition root: `sitehealth serve` opens the store, builds the services, mounts the API
 * and the dashboard (on the same services) and listens.
 */
export * from './start.js'
export { composeApp, type ComposeOptions } from './app.js'
