import type { MonitorTypeFace } from './face.js'

/** A heartbeat monitor: a job calls its push URL; silence past interval + grace is down. */
export const heartbeat: MonitorTypeFace = {
  type: 'heartbeat',
  noun: 'heartbeat',
  url: false,
  noUrl: 'its job calls it',
  pushed: true,
  words:
    'heartbeat: no url; your job (cron, backup) calls the push_url the result gives, and silence past interval_seconds + grace_seconds is down.',
}
