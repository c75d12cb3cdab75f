/**
 * Tables the way gh prints them (its tableprinter): on a terminal, borderless columns two spaces
 * apart, fitted to the width by truncating the columns that may shrink (with "…"), a header row;
 * into a pipe, one tab-separated line per row with the full values and no header, for `cut`,
 * `awk` and `while read`. Every list command (recent, keys list, monitors …) prints through this.
 */
import type { Paint } from '../style.js'
import type { View } from './view.js'
import { displayWidth } from './wrap.js'

export interface Column {
  header: string
  /** May be cut to fit the terminal (URLs, names); ids, scores and dates never shrink. */
  shrink?: boolean
  /** Never narrower than this when shrinking (default 8, or the header's width if wider). */
  minWidth?: number
  /**
   * Left out on a terminal too narrow for every column even after shrinking: 1 goes first, then
   * 2… (a pipe always gets every column).
   */
  dropOrder?: number
}

/** A cell: the text people see, the full value scripts get, and a colour applied after fitting. */
export type Cell = string | { text: string; full?: string; paint?: Paint }

const GAP = '  '
const ELLIPSIS = '…'

const textOf = (c: Cell) => (typeof c === 'string' ? c : c.text)
const fullOf = (c: Cell) => (typeof c === 'string' ? c : (c.full ?? c.text))
const paintOf = (c: Cell): Paint | undefined => (typeof c === 'string' ? undefined : c.paint)

/** Cut `text` to `width` display columns, ending in "…" when anything was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  if (width <= 1) return ELLIPSIS.slice(0, width)
  let out = ''
  for (const ch of text) {
    if (displayWidth(out + ch) > width - 1) break
    out += ch
  }
  return out + ELLIPSIS
}

/** Column widths that fit `width`: shrink the widest shrinkable column first, one column at a time. */
export function fitWidths(natural: number[], columns: Column[], width: number | undefined): number[] {
  const widths = [...natural]
  if (width === undefined) return widths
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1)
  const floor = (i: number) =>
    Math.min(natural[i], Math.max(columns[i].minWidth ?? 8, displayWidth(columns[i].header)))
  while (total() > width) {
    let widest = -1
    for (let i = 0; i < widths.length; i++) {
      if (!columns[i].shrink || widths[i] <= floor(i)) continue
      if (widest === -1 || widths[i] > widths[widest]) widest = i
    }
    if (widest === -1) break // nothing left to shrink: the terminal wraps what remains
    widths[widest] -= Math.min(widths[widest] - floor(widest), Math.max(1, total() - width))
  }
  return widths
}

function naturalWidths(columns: Column[], rows: Cell[][]): number[] {
  return columns.map((c, i) =>
    Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(textOf(r[i] ?? '')))),
  )
}

/** Indexes of the columns to show: all, unless even shrunk they cannot fit; then drop by dropOrder. */
function columnsThatFit(columns: Column[], rows: Cell[][], width: number | undefined): number[] {
  let keep = columns.map((_, i) => i)
  if (width === undefined) return keep
  const natural = naturalWidths(columns, rows)
  const droppable = keep
    .filter((i) => columns[i].dropOrder !== undefined)
    .sort((a, b) => columns[a].dropOrder! - columns[b].dropOrder!)
  for (;;) {
    const cols = keep.map((i) => columns[i])
    const widths = fitWidths(
      keep.map((i) => natural[i]),
      cols,
      width,
    )
    const total = widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1)
    const next = droppable.shift()
    if (total <= width || next === undefined) return keep
    keep = keep.filter((i) => i !== next)
  }
}

const tsvSafe = (s: string) => s.replace(/[\t\r\n]+/g, ' ')

export function renderTable(view: View, allColumns: Column[], allRows: Cell[][]): string {
  if (!view.tty) return allRows.map((row) => row.map((c) => tsvSafe(fullOf(c))).join('\t')).join('\n')
  const keep = columnsThatFit(allColumns, allRows, view.width)
  const columns = allColumns.filter((_, i) => keep.includes(i))
  const rows = allRows.map((row) => keep.map((i) => row[i] ?? ''))
  const headers = columns.map((c) => c.header.toUpperCase())
  const natural = columns.map((_, i) =>
    Math.max(displayWidth(headers[i]), ...rows.map((r) => displayWidth(textOf(r[i] ?? '')))),
  )
  const widths = fitWidths(natural, columns, view.width)
  const line = (cells: Array<{ text: string; paint?: Paint }>) =>
    cells
      .map((cell, i) => {
        const text = truncate(cell.text, widths[i])
        const painted = cell.paint ? cell.paint(text) : text
        const last = i === cells.length - 1
        return last ? painted : painted + ' '.repeat(Math.max(0, widths[i] - displayWidth(text)))
      })
      .join(GAP)
      .trimEnd()
  return [
    line(headers.map((text) => ({ text, paint: view.style.bold }))),
    ...rows.map((row) =>
      line(columns.map((_, i) => ({ text: textOf(row[i] ?? ''), paint: paintOf(row[i] ?? '') }))),
    ),
  ].join('\n')
}

/** The short form of an id shown in tables: its last 8 characters (UUIDv7 ids start with a timestamp, so their heads collide and their random tails do not). */
export const SHORT_ID_LENGTH = 8
export function shortId(id: string): string {
  return id.length > SHORT_ID_LENGTH ? id.slice(-SHORT_ID_LENGTH) : id
}

/** An id cell: short on a terminal (unless `wide`), whole in a pipe. */
export function idCell(id: string, wide = false): Cell {
  return { text: wide ? id : shortId(id), full: id }
}
