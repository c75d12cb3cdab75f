/**
 * What a key may be called. A key's name is chosen by whoever asks for the key (an admin, a
 * signed-in user, or — through `sitehealth login` — anyone who can reach the device endpoint) and
 * is shown later to someone else, on the device approval page above all. So the name is plain
 * text on one line: no control characters (C0, C1, newlines, tabs), no format characters (Unicode
 * category Cf: bidi overrides and isolates, zero-width characters, the soft hyphen, the BOM), no
 * line or paragraph separators, no private-use or unassigned code points — the characters that
 * make a name read differently from what it is (Unicode TR 36, "Unicode Security Considerations";
 * CVE-2021-42574, "Trojan Source"). Letters and marks of every script stay allowed.
 */
import { z } from 'zod'

export const KEY_NAME_MAX = 100

const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/u

/** Why `name` cannot name a key, or null when it can. */
export function keyNameProblem(name: string): string | null {
  // checked before trimming: String.prototype.trim also drops some of them (line breaks, the BOM)
  if (FORBIDDEN.test(name))
    return 'A key name cannot hold control, invisible or text-direction characters (or line breaks).'
  const trimmed = name.trim()
  if (trimmed.length === 0) return 'Give the key a name.'
  if (trimmed.length > KEY_NAME_MAX) return `A key name has at most ${KEY_NAME_MAX} characters.`
  return null
}

/** The name field of every request that names a key (admin API, device grant). */
export const KeyName = z
  .string()
  .min(1)
  .max(KEY_NAME_MAX)
  .superRefine((name, ctx) => {
    const problem = keyNameProblem(name)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .trim()
  .meta({
    description: `Name of the key: 1 to ${KEY_NAME_MAX} characters of plain text on one line (no control, format or bidi characters).`,
  })
