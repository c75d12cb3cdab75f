/**
 * The admin token rule (docs/decisions.md#scale-out, issue 16): at least 32 characters everywhere — the server
 * refuses to start with a shorter one and admin commands refuse to send one. A short or repetitive
 * token falls to a small wordlist (`change-me` was found at 646 guesses/s).
 */
export const MIN_ADMIN_TOKEN_LENGTH = 32
/** Distinct characters a token must use: 32 times the same letter is no secret. */
const MIN_DISTINCT_CHARACTERS = 8

export const ADMIN_TOKEN_HOWTO = 'Generate one with: openssl rand -base64 32'

/**
 * Why a token is too weak to use, or undefined when it is fine. The same rule holds every bearer
 * token an operator chooses (`what` names it): the admin token and `serve --metrics-token`.
 */
export function adminTokenProblem(token: string, what = 'an admin token'): string | undefined {
  if (token.length < MIN_ADMIN_TOKEN_LENGTH)
    return `it has ${token.length} characters; ${what} needs at least ${MIN_ADMIN_TOKEN_LENGTH}`
  if (new Set(token).size < MIN_DISTINCT_CHARACTERS)
    return `it uses fewer than ${MIN_DISTINCT_CHARACTERS} distinct characters`
  if (/\s/.test(token)) return 'it contains white space'
  return undefined
}
