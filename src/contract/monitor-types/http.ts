import type { MonitorTypeFace } from './face.js'

/** An http monitor: the service checks its url. */
export const http: MonitorTypeFace = {
  type: 'http',
  noun: 'http',
  url: true,
  pushed: false,
  words: 'http (default): the service checks `url`.',
}
