/** Alerts of monitors: the event records a run raises and their dispatch to channels. */
export { AlertDispatcher, type AlertDispatcherOptions, type RaisedListener } from './dispatcher.js'
export { eventRecords } from './events.js'
