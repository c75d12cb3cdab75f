/**
 * What a renderer needs to know about where its text goes: the colours, whether stdout is a
 * terminal (fitted tables) or a pipe (tab-separated columns), and how wide to wrap.
 */
import { makeStyle, type Style } from '../style.js'

export interface View {
  style: Style
  /** stdout is a terminal: people read it. Otherwise scripts do (gh's convention). */
  tty: boolean
  /** Columns available; undefined: do not wrap or truncate. */
  width?: number
}

/** A plain, unwrapped view for people (tests, and callers that have no terminal). */
export function plainView(o: Partial<View> = {}): View {
  return { style: makeStyle(false), tty: true, ...o }
}
