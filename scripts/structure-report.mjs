#!/usr/bin/env node
// Measures the shape of src/: pairs of top-level folders that import each other, circles of files,
// the longest functions and the largest files. Build-only: not shipped.
//   node scripts/structure-report.mjs [--top N] [--runtime]
//   node scripts/structure-report.mjs --write   rewrites the marked block of docs/architecture.md
//   node scripts/structure-report.mjs --check   exits 1 when that block is stale (test/docs)
// Type-only imports count as edges unless --runtime is given (a type import still ties two folders).
import { readFileSync, readdirSync, statSync, existsSync, writeFileSync } from 'node:fs'
import { join, dirname, relative, resolve } from 'node:path'
import ts from 'typescript'

const root = resolve(dirname(new URL(import.meta.url).pathname), '..')
const src = join(root, 'src')
const topN = Number(process.argv[process.argv.indexOf('--top') + 1]) || 10
const runtimeOnly = process.argv.includes('--runtime')

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : []
  })
}

const files = walk(src)
const edges = new Map() // file -> Set(file), run-time imports only
const functions = []
const sizes = []

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return null
  const base = resolve(dirname(from), spec).replace(/\.js$/, '')
  for (const candidate of [base + '.ts', join(base, 'index.ts')]) if (existsSync(candidate)) return candidate
  return null
}

for (const file of files) {
  const text = readFileSync(file, 'utf8')
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  sizes.push({ file: relative(root, file), lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) })
  const out = new Set()
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && !(runtimeOnly && node.importClause?.isTypeOnly)) {
      const named = node.importClause?.namedBindings
      const allTypes =
        node.importClause &&
        !node.importClause.name &&
        named &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly)
      const target = resolveImport(file, node.moduleSpecifier.text)
      if (target && !(runtimeOnly && allTypes)) out.add(target)
    } else if (ts.isExportDeclaration(node) && !(runtimeOnly && node.isTypeOnly) && node.moduleSpecifier) {
      const target = resolveImport(file, node.moduleSpecifier.text)
      if (target) out.add(target)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0]
      if (arg && ts.isStringLiteral(arg)) {
        const target = resolveImport(file, arg.text)
        if (target) out.add(target)
      }
    }
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)
    ) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line
      let name = node.name?.getText(sf)
      if (!name && ts.isVariableDeclaration(node.parent)) name = node.parent.name.getText(sf)
      if (!name && ts.isPropertyAssignment(node.parent)) name = node.parent.name.getText(sf)
      functions.push({
        file: relative(root, file),
        name: name ?? '(anonymous)',
        line: start + 1,
        lines: end - start + 1,
      })
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  edges.set(file, out)
}

const folderOf = (file) => relative(src, file).split('/')[0].replace(/\.ts$/, '')
const folderEdges = new Map()
for (const [from, tos] of edges)
  for (const to of tos) {
    const a = folderOf(from)
    const b = folderOf(to)
    if (a === b) continue
    if (!folderEdges.has(a)) folderEdges.set(a, new Map())
    const m = folderEdges.get(a)
    if (!m.has(b)) m.set(b, [])
    m.get(b).push(`${relative(src, from)} -> ${relative(src, to)}`)
  }
const pairs = []
for (const [a, m] of folderEdges)
  for (const b of m.keys()) if (a < b && folderEdges.get(b)?.has(a)) pairs.push([a, b])

// Strongly connected components of folders (a circle may be longer than a pair).
function scc(nodes, next) {
  let index = 0
  const idx = new Map()
  const low = new Map()
  const stack = []
  const on = new Set()
  const out = []
  const strong = (v) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of next(v)) {
      if (!idx.has(w)) {
        strong(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)))
    }
    if (low.get(v) === idx.get(v)) {
      const comp = []
      let w
      do {
        w = stack.pop()
        on.delete(w)
        comp.push(w)
      } while (w !== v)
      if (comp.length > 1) out.push(comp)
    }
  }
  for (const v of nodes) if (!idx.has(v)) strong(v)
  return out
}
const folders = [...new Set(files.map(folderOf))]
const folderCycles = scc(folders, (f) => [...(folderEdges.get(f)?.keys() ?? [])])
const fileCycles = scc(files, (f) => [...(edges.get(f) ?? [])])

const report = {
  folderPairsImportingEachOther: pairs.map(([a, b]) => ({
    pair: `${a} <-> ${b}`,
    [`${a} -> ${b}`]: folderEdges.get(a).get(b),
    [`${b} -> ${a}`]: folderEdges.get(b).get(a),
  })),
  folderCycles: folderCycles.map((c) => c.sort().join(', ')),
  fileCycles: fileCycles.map((c) => c.map((f) => relative(src, f)).join(' -> ')),
  functionsOver120Lines: functions.filter((f) => f.lines > 120).length,
  longestFunctions: functions
    .sort((a, b) => b.lines - a.lines)
    .slice(0, topN)
    .map((f) => `${f.lines} ${f.file}:${f.line} ${f.name}`),
  filesOver500LinesOutsideContract: sizes.filter((s) => s.lines > 500 && !s.file.startsWith('src/contract/'))
    .length,
  largestFiles: sizes
    .sort((a, b) => b.lines - a.lines)
    .slice(0, topN)
    .map((s) => `${s.lines} ${s.file}`),
}

// ---- the block of docs/architecture.md: numbers measured here, never typed ----

const START = '<!-- structure-report:start (node scripts/structure-report.mjs --write) -->'
const END = '<!-- structure-report:end -->'
/** Lines to the hundred: the block changes with the shape of src/, not with every edit. */
const hundreds = (n) => (Math.round(n / 100) * 100).toLocaleString('en-US')

function block() {
  const byFolder = new Map()
  for (const s of sizes) {
    const folder = s.file.split('/')[1].replace(/\.ts$/, '')
    const f = byFolder.get(folder) ?? { files: 0, lines: 0 }
    f.files++
    f.lines += s.lines
    byFolder.set(folder, f)
  }
  const total = sizes.reduce((n, s) => n + s.lines, 0)
  const rows = [...byFolder].sort(([a], [b]) => a.localeCompare(b))
  const over = (n) => sizes.filter((s) => s.lines >= n && !s.file.startsWith('src/contract/')).length
  return [
    START,
    '',
    '| Folder | Files | Lines (to the hundred) |',
    '| ------ | ----: | ---------------------: |',
    ...rows.map(([f, { files, lines }]) => `| \`${f}/\` | ${files} | ${hundreds(lines)} |`),
    `| all of \`src/\` | ${sizes.length} | ${hundreds(total)} |`,
    '',
    `Folder pairs importing each other: ${pairs.length}. Folders in circles: ${folderCycles.length}. ` +
      `Circles of files (type-only imports count): ${fileCycles.length}. ` +
      `Functions over 120 lines: ${functions.filter((f) => f.lines > 120).length}. ` +
      `Files outside \`contract/\` of 400 lines or more: ${over(400)}; over 500: ${over(501)}.`,
    '',
    END,
  ].join('\n')
}

if (process.argv.includes('--write') || process.argv.includes('--check')) {
  const doc = join(root, 'docs', 'architecture.md')
  const text = readFileSync(doc, 'utf8')
  const from = text.indexOf(START)
  const to = text.indexOf(END)
  if (from < 0 || to < from) {
    console.error(`docs/architecture.md has no block between ${START} and ${END}`)
    process.exit(1)
  }
  // as prettier writes it (npm run lint holds docs/ to prettier), so --check compares like with like
  const prettier = await import('prettier')
  const config = (await prettier.resolveConfig(doc)) ?? {}
  const next = await prettier.format(text.slice(0, from) + block() + text.slice(to + END.length), {
    ...config,
    filepath: doc,
  })
  if (process.argv.includes('--check')) {
    if (next !== text) {
      console.error(
        'docs/architecture.md: the numbers are stale. Run: node scripts/structure-report.mjs --write',
      )
      process.exit(1)
    }
  } else writeFileSync(doc, next)
} else console.log(JSON.stringify(report, null, 2))
