/**
 * Prometheus metrics (docs/decisions.md#the-public-face). The door: `Metrics` holds the series and
 * the observe calls the server, the check runner and the scheduler make; the server's
 * `routes/metrics.ts` serves them at `/metrics` behind `serve --metrics-token`. Without a token no
 * Metrics exists and nothing on the request path is measured. This folder imports no HTTP layer.
 */
export { Metrics, type CheckOutcome, type MetricsSources } from './registry.js'
