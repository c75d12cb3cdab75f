/** The dashboard: its routes (mounted by the composition root, src/serve) and its port to monitors. */
export { dashboardRoutes } from './routes/index.js'
export type { DashboardDeps } from './kit.js'
export { MonitorRejected, type DashboardMonitors } from './monitors-port.js'
export { StatusPageRejected, type DashboardStatusPages, type StatusPageInput } from './status-pages-port.js'
export { MaintenanceRejected, type DashboardMaintenance, type MaintenanceInput } from './maintenance-port.js'
