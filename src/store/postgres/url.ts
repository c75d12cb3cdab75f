/** Database URL helpers, free of the driver (loaded by commands that must start fast). */

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url)
}

/** The URL without its password (for messages and logs). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return '(unparseable database URL)'
  }
}
