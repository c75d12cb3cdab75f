/**
 * The faces' registry of monitor types (face.ts): every type's entry, and the lookups a face
 * makes. The one place outside src/monitors/kinds/ that lists the types one by one.
 */
import type { MonitorType } from '../monitors.js'
import type { MonitorTypeFace, TargetFields } from './face.js'
import { heartbeat } from './heartbeat.js'
import { http } from './http.js'
import { tcp } from './tcp.js'
import { tls } from './tls.js'
import { dns } from './dns.js'
import { ping } from './ping.js'

export {
  FlagValueError,
  intervalField,
  nameField,
  tagsField,
  type MonitorTypeFace,
  type TargetFields,
  type TypeCli,
  type TypedFlags,
  type TypeFlag,
  type TypeForm,
  type TypeFormField,
} from './face.js'

export const MONITOR_TYPE_FACES: Record<MonitorType, MonitorTypeFace> = {
  http,
  heartbeat,
  tcp,
  tls,
  dns,
  ping,
}

/** The type a create body without `type` has. */
export const DEFAULT_MONITOR_TYPE: MonitorType = 'http'

/** The face of a type (absent: the default type). */
export const typeFace = (type: MonitorType | undefined): MonitorTypeFace =>
  MONITOR_TYPE_FACES[type ?? DEFAULT_MONITOR_TYPE]

/** Every type's face, in the registry's order. */
export const typeFaces = (): MonitorTypeFace[] => Object.values(MONITOR_TYPE_FACES)

/** What a monitor watches, as lists show it: its url, else as its type words it, else its noun. */
export const targetText = (m: TargetFields & { type?: MonitorType }): string => {
  const face = typeFace(m.type)
  return m.url || (face.target ? face.target(m) : face.noun)
}

/** The type whose runs are pushed (it takes `grace`), for the words that name it. */
export const pushedType = (): MonitorTypeFace => Object.values(MONITOR_TYPE_FACES).find((f) => f.pushed)!
