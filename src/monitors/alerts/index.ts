/** Alerts of monitors: the event records a run raises and their dispatch to channels. */
export { AlertDispatcher, type AlertDispatcherOptions } from './dispatcher.js'
export { eventRecords } from './events.js'
