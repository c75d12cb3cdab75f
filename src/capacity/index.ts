export {
  CapacityExceededError,
  CheckCapacity,
  DEFAULT_CAPACITY,
  type AcquireOptions,
  type CapacityLimit,
  type CapacityOptions,
  type CapacityStats,
  type Slot,
} from './check-capacity.js'
