/**
 * Durations as people type them (`--every 5m`, `grace: 10m` in sitehealth.yaml, a type's flags):
 * `90`, `90s`, `5m`, `1h`, `1d`, and back.
 */

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 }

/** `90`, `90s`, `5m`, `1h`, `1d` → seconds; undefined when it is none of these. */
export function parseEvery(text: string): number | undefined {
  const m = /^\s*(\d+)\s*([smhd]?)\s*$/i.exec(text)
  if (!m) return undefined
  const n = Number(m[1]) * UNITS[(m[2] || 's').toLowerCase()]
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/** 300 → "5m", 90 → "90s", 3600 → "1h". */
export function formatEvery(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400}d`
  if (seconds % 3600 === 0) return `${seconds / 3600}h`
  if (seconds % 60 === 0) return `${seconds / 60}m`
  return `${seconds}s`
}
