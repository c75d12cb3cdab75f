/**
 * The lab door: performance measured by Lighthouse in a real Chromium (docs/decisions.md#performance-lab-and-estimate). `serve
 * --lab-browser` starts one Lab; checks ask it to measure and fall back to the estimate when it
 * cannot. Nothing else in the project imports Lighthouse, puppeteer or chrome-launcher.
 */
export { Lab, LabStartError, type LabStats } from './lab.js'
export { findChromium } from './browser.js'
export {
  LAB_DEFAULTS,
  type LabFallback,
  type LabFallbackReason,
  type LabMeasured,
  type LabMetrics,
  type LabOptions,
  type LabOutcome,
  type LabRunner,
} from './types.js'
