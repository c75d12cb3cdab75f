/**
 * Server-side rendering: Preact components written with htm's tagged templates (no JSX build
 * step), rendered to a string by preact-render-to-string, which escapes every interpolated value.
 */
import { html } from 'htm/preact'
import { render } from 'preact-render-to-string'

export { html }
export type Node = ReturnType<typeof html>

export const toHtml = (node: Node) => '<!doctype html>' + render(node as any)

export function fmtDate(iso: string | null | undefined): string {
  if (!iso) return '—'
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')
}
