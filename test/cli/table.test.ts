/** The shared table printer and text wrapping (gh's tableprinter conventions). */
import { describe, expect, it } from 'vitest'
import { fitWidths, idCell, renderTable, shortId, truncate } from '../../src/cli/render/table.js'
import { plainView } from '../../src/cli/render/view.js'
import { hanging, paragraph } from '../../src/cli/render/wrap.js'
import { makeStyle } from '../../src/cli/style.js'

const cols = [{ header: 'id' }, { header: 'url', shrink: true }, { header: 'n' }]
const rows = [
  [
    idCell('0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d'),
    'https://a-rather-long-host-name.example/and/a/long/path',
    '7',
  ],
  [idCell('0193a5c4-8f2e-7b1a-9c3d-000000000001'), 'https://b.example/', '12'],
]

describe('renderTable', () => {
  it('on a terminal: header, two-space gaps, no borders, short ids', () => {
    expect(renderTable(plainView(), cols, rows).split('\n')).toEqual([
      'ID        URL                                                      N',
      '5a6b7c8d  https://a-rather-long-host-name.example/and/a/long/path  7',
      '00000001  https://b.example/                                       12',
    ])
  })
  it('fits the width by shrinking only the shrinkable column, with an ellipsis', () => {
    const lines = renderTable(plainView({ width: 40 }), cols, rows).split('\n')
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40)
    expect(lines).toEqual([
      'ID        URL                         N',
      '5a6b7c8d  https://a-rather-long-hos…  7',
      '00000001  https://b.example/          12',
    ])
  })
  it('in a pipe: tab-separated full values, no header, no padding', () => {
    expect(renderTable(plainView({ tty: false, width: 20 }), cols, rows).split('\n')).toEqual([
      '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d\thttps://a-rather-long-host-name.example/and/a/long/path\t7',
      '0193a5c4-8f2e-7b1a-9c3d-000000000001\thttps://b.example/\t12',
    ])
  })
  it('keeps tabs and newlines of values out of the columns', () => {
    expect(renderTable(plainView({ tty: false }), [{ header: 'a' }], [['x\ty\nz']])).toBe('x y z')
  })
  it('paints after fitting, so colour never breaks the alignment', () => {
    const view = plainView({ style: makeStyle(true) })
    const t = renderTable(
      view,
      [{ header: 'a' }, { header: 'b' }],
      [[{ text: 'ok', paint: view.style.green }, 'x']],
    )
    expect(t).toContain('\x1b[32mok\x1b[39m  x')
  })
})

describe('fitting and cutting', () => {
  it('truncate counts display columns and ends in …', () => {
    expect(truncate('abcdef', 4)).toBe('abc…')
    expect(truncate('abc', 4)).toBe('abc')
    expect(truncate('日本語テキスト', 5)).toBe('日本…')
  })
  it('fitWidths never goes below the floor; the terminal wraps what cannot fit', () => {
    expect(fitWidths([8, 60, 3], cols, 30)).toEqual([8, 15, 3])
    expect(fitWidths([8, 60, 3], cols, 10)).toEqual([8, 8, 3])
    expect(fitWidths([8, 60, 3], cols, undefined)).toEqual([8, 60, 3])
  })
  it('short ids are the random tail of a UUIDv7, not its timestamp head', () => {
    expect(shortId('01a20847-a50f-74c1-bd1e-a6e40dfd6386')).toBe('0dfd6386')
  })
})

describe('wrapping', () => {
  it('hangs continuation lines under the text and never cuts a word', () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve thirteen'
    const out = hanging('  summary  ', text, 40).split('\n')
    expect(out[0].startsWith('  summary  one two')).toBe(true)
    for (const l of out) expect(l.length).toBeLessThanOrEqual(40)
    for (const l of out.slice(1)) expect(l).toMatch(/^ {11}\S/)
    expect(out.map((l) => l.trim()).join(' ')).toBe(`summary  ${text}`)
  })
  it('moves the text under its label when the terminal is too narrow beside it', () => {
    const out = hanging('  a very long label here  ', 'text that needs room to be read', 40)
    expect(out.split('\n')[0]).toBe('  a very long label here')
    expect(out.split('\n')[1].startsWith('    text')).toBe(true)
  })
  it('does not wrap without a width, and cuts a word only when it is longer than a line', () => {
    expect(paragraph('a b c', undefined)).toBe('a b c')
    expect(paragraph('x'.repeat(30), 10).split('\n')).toHaveLength(3)
  })
})

describe('dropping columns', () => {
  it('a terminal too narrow even after shrinking loses the droppable columns, lowest order first', () => {
    const columns = [
      { header: 'id' },
      { header: 'name', shrink: true },
      { header: 'created', dropOrder: 2 },
      { header: 'last used', dropOrder: 1 },
    ]
    const row = ['a1b2c3d4', 'laptop', '2025-06-01', '2025-06-02']
    expect(renderTable(plainView({ width: 80 }), columns, [row]).split('\n')[0]).toBe(
      'ID        NAME    CREATED     LAST USED',
    )
    expect(renderTable(plainView({ width: 32 }), columns, [row]).split('\n')[0]).toBe(
      'ID        NAME    CREATED',
    )
    expect(renderTable(plainView({ width: 20 }), columns, [row]).split('\n')[0]).toBe('ID        NAME')
    // a pipe always gets every column
    expect(renderTable(plainView({ tty: false, width: 20 }), columns, [row])).toBe(row.join('\t'))
  })
})
