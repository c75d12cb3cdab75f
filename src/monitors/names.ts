/**
 * A monitor's name when its owner gives none: its URL's host (issue 31). Such a name says where
 * the monitor points, as its URL does, so public faces show it only where URLs show
 * (`isHostName`); an owner's own name shows everywhere.
 */

/** The name of an http monitor created without one. */
export const defaultName = (url: string) => new URL(url).host

/** Whether `name` is only the host of `url` (with or without its port): it reveals the URL. */
export function isHostName(name: string, url: string): boolean {
  if (!url) return false
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return false
  }
  const n = name.trim().toLowerCase()
  return n === u.host || n === u.hostname
}
