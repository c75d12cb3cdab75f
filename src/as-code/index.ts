/** Monitors as code (docs/decisions.md#monitors-as-code): the file, the plan, deploy, pull, test. */
export { DEFAULT_FILE, FileError, loadFile, loadText, substitute, type Loaded } from './load.js'
export { fileJsonSchema, SitehealthFile, schemaUrl } from '../contract/file-schema.js'
export { makePlan, type Plan, type PlanItem } from './plan.js'
export { applyPlan, fetchCurrent, type ApplyResult } from './apply.js'
export { planJson, renderOutcome, renderPlan } from './render.js'
export { pullFile } from './pull.js'
export { runTests, type TestReport } from './test-run.js'
export { REPORTERS, report, type Reporter } from './reporters.js'
