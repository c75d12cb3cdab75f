/** The dashboard: its routes (mounted by the composition root, src/serve), on the services the API calls. */
export { dashboardRoutes } from './routes/index.js'
export type { DashboardDeps } from './kit.js'
