/**
 * The composition root: `sitehealth serve` opens the store, builds the services, mounts the API
 * and the dashboard (passing the dashboard its ports) and listens.
 */
export * from './start.js'
export { composeApp, type ComposeOptions } from './app.js'
export { dashboardMonitors } from './dashboard-port.js'
export { dashboardStatusPages } from './status-pages-port.js'
