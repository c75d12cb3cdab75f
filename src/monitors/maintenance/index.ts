export { MaintenanceService, maintenanceView, type MaintenanceOpening } from './service.js'
export { currentOrNext, openAt, openings, wallToInstant, zoneOffset, type Opening } from './schedule.js'
