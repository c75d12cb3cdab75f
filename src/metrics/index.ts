/**
 * Prometheus metrics (docs/decisions.md#the-public-face). The door: `Metrics` holds the series and
 * the observe calls the server, the check runner and the scheduler make; `metricsRoutes` serves
 * them at `/metrics` behind `serve --metrics-token`. Without a token no Metrics exists and nothing
 * on the request path is measured.
 */
export { Metrics, type CheckOutcome, type MetricsSources } from './registry.js'
export { metricsRoutes, METRICS_PATH } from './route.js'
