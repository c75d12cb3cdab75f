import type { MonitorTypeFace } from './face.js'

/** A ping monitor: ICMP echo to a host through the server's `ping`. */
export const ping: MonitorTypeFace = {
  type: 'ping',
  noun: 'ping',
  url: false,
  noUrl: 'it pings host',
  pushed: false,
  host: true,
  port: 'none',
  words:
    'ping: `host` and `count` (echo requests, default 3); up when at least one reply returns, response time the average round trip, details.packet_loss the percent lost (packet_loss assertions); refused where the server may not ping.',
  assertions: ['response_time', 'packet_loss'],
  target: (m) => (m.host ? `ping ${m.host}` : 'ping'),
}
