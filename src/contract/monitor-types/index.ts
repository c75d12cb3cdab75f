/**
 * The faces' registry of monitor types (face.ts): every type's entry, and the lookups a face
 * makes. The one place outside src/monitors/kinds/ that lists the types one by one.
 */
import type { MonitorType } from '../monitors.js'
import type { MonitorTypeFace } from './face.js'
import { heartbeat } from './heartbeat.js'
import { http } from './http.js'

export {
  FlagValueError,
  intervalField,
  nameField,
  tagsField,
  type MonitorTypeFace,
  type TypeCli,
  type TypedFlags,
  type TypeFlag,
  type TypeForm,
  type TypeFormField,
} from './face.js'

export const MONITOR_TYPE_FACES: Record<MonitorType, MonitorTypeFace> = { http, heartbeat }

/** The type a create body without `type` has. */
export const DEFAULT_MONITOR_TYPE: MonitorType = 'http'

/** The face of a type (absent: the default type). */
export const typeFace = (type: MonitorType | undefined): MonitorTypeFace =>
  MONITOR_TYPE_FACES[type ?? DEFAULT_MONITOR_TYPE]

/** Every type's face, in the registry's order. */
export const typeFaces = (): MonitorTypeFace[] => Object.values(MONITOR_TYPE_FACES)

/** What a monitor watches, as lists show it: its url, else its type's noun. */
export const targetText = (m: { type?: MonitorType; url?: string | null }): string =>
  m.url ?? typeFace(m.type).noun

/** The type whose runs are pushed (it takes `grace`), for the words that name it. */
export const pushedType = (): MonitorTypeFace => Object.values(MONITOR_TYPE_FACES).find((f) => f.pushed)!
