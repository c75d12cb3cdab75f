#!/usr/bin/env node
// Measures the shape of src/: pairs of top-level folders that import each other, circles of files,
// the longest functions and the largest files. Build-only: not shipped.
//   node scripts/structure-report.mjs [--top N] [--runtime]
// Type-only imports count as edges unless --runtime is given (a type import still ties two folders).
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs'
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
console.log(JSON.stringify(report, null, 2))
