export { runHistory, type RunJudgement } from './history.js'
export { percent, uptimeReport, uptimeWindows, DEFAULT_REPORT_MS } from './report.js'
