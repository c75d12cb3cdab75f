/** How durations and sizes read in a message or a table (checks' messages and the CLI alike). */
/** 2400 → "2.4 s", 800 → "0.8 s", 150 → "0.15 s", 12400 → "12 s", 4 → "4 ms" (never "0 s"). */
export function fmtDuration(ms: number): string {
  const s = Math.max(0, ms) / 1000
  if (s < 0.1) return `${Math.round(Math.max(0, ms))} ms`
  if (s >= 10) return `${Math.round(s)} s`
  if (s >= 1) return `${trimZeros(s.toFixed(1))} s`
  return `${trimZeros(s.toFixed(2))} s`
}

/** 950 → "950 B", 48000 → "48 KB", 3_200_000 → "3.2 MB" (decimal units, as browsers' devtools show). */
export function fmtBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`
  if (bytes < 1_000_000) return `${trimZeros((bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0))} KB`
  return `${trimZeros((bytes / 1_000_000).toFixed(1))} MB`
}

const trimZeros = (s: string) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s)
