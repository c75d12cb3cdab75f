/**
 * What a face (CLI, dashboard, MCP, sitehealth.yaml) needs to know of a monitor type, beside its
 * wire shape (contract/monitors.ts) and its kind on the server (src/monitors/kinds/). Faces read
 * these instead of naming a type: a new type is a module of this folder and its entry in
 * `MONITOR_TYPE_FACES` (index.ts).
 */
import type { MonitorType } from '../monitors.js'

export interface MonitorTypeFace {
  type: MonitorType
  /** What a list shows for what it watches when it has no url (`heartbeat`). */
  noun: string
  /**
   * The service calls a url of it: `url` and assertions in its create shape, a URL field in the
   * forms, and a run on demand (the dashboard's Run now, `sitehealth test`).
   */
  url: boolean
  /** Why it has no url, as a refused `url` says it (types with a url: none). */
  noUrl?: string
  /**
   * Its runs are pushed to it (a job calls its push URL, a run is a beat or a missed deadline):
   * the push URL shown once at creation, the newest beat instead of the last run, `grace`.
   */
  pushed: boolean
  /** How the MCP create tool describes it: a sentence. */
  words: string
}
