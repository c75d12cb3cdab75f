export { runHistory, type RunJudgement } from './history.js'
export { percent, uptimeReport, uptimeWindows, UptimeQueryError, DEFAULT_REPORT_MS } from './report.js'
