/**
 * How `test` reports: human lines, JSON, JUnit XML (junit-report-builder, the maintained builder
 * CI systems' own docs point to) and GitHub Actions (`::error` workflow commands plus a Markdown
 * table appended to $GITHUB_STEP_SUMMARY).
 */
import { appendFile, writeFile } from 'node:fs/promises'
import junitModule, { type Builder } from 'junit-report-builder'
import type { TestReport } from './test-run.js'

export const REPORTERS = ['human', 'json', 'junit', 'github'] as const
export type Reporter = (typeof REPORTERS)[number]

function human(r: TestReport): string {
  const lines = r.tests.map((t) => {
    const mark = t.outcome === 'passed' ? 'PASS' : t.outcome === 'failed' ? 'FAIL' : 'ERROR'
    const score = t.health_score === null ? '' : ` score ${t.health_score}`
    const head = `${mark.padEnd(5)} ${t.ref} (${t.url})${score}`
    return [
      head,
      ...t.failures.map((f) => `      ${f.assertion}: expected ${f.expected}, got ${f.actual}`),
      ...(t.error ? [`      ${t.error}`] : []),
    ].join('\n')
  })
  lines.push(`${r.passed} passed, ${r.failed} failed, ${r.errors} could not be checked.`)
  return lines.join('\n')
}

export function junitXml(r: TestReport): string {
  // Node's ESM loader hands the CommonJS module.exports (the Builder) over as the default import
  const b = (junitModule as unknown as Builder).newBuilder()
  const suite = b.testSuite().name(`sitehealth ${r.file}`)
  for (const t of r.tests) {
    const tc = suite
      .testCase()
      .className('sitehealth')
      .name(`${t.ref} ${t.url}`)
      .time(t.duration_ms / 1000)
    if (t.outcome === 'failed') {
      // one <failure> (the builder's limit): every failed assertion in it, expected and actual
      const text = t.failures.map((f) => `${f.assertion}: expected ${f.expected}, actual ${f.actual}`)
      tc.failure(text.join('; '), 'assertion')
      tc.stacktrace(text.join('\n'))
    } else if (t.outcome === 'error') tc.error(t.error ?? 'could not be checked', 'check_failed')
  }
  return b.build()
}

const escapeCmd = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')

function githubAnnotations(r: TestReport): string {
  const out: string[] = []
  for (const t of r.tests) {
    for (const f of t.failures)
      out.push(
        `::error file=${r.file},title=${escapeCmd(`sitehealth ${t.ref}`)}::${escapeCmd(`${f.assertion}: expected ${f.expected}, got ${f.actual} (${t.url})`)}`,
      )
    if (t.error)
      out.push(
        `::error file=${r.file},title=${escapeCmd(`sitehealth ${t.ref}`)}::${escapeCmd(`${t.url}: ${t.error}`)}`,
      )
  }
  out.push(`${r.passed} passed, ${r.failed} failed, ${r.errors} could not be checked.`)
  return out.join('\n')
}

function markdown(r: TestReport): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
  const rows = r.tests.map((t) => {
    const result =
      t.outcome === 'passed' ? '✅ passed' : t.outcome === 'failed' ? '❌ failed' : '⚠️ not checked'
    const detail =
      t.error ?? t.failures.map((f) => `${f.assertion}: expected ${f.expected}, got ${f.actual}`).join('; ')
    return `| ${cell(t.ref)} | ${cell(t.url)} | ${result} | ${t.health_score ?? '–'} | ${cell(detail || '')} |`
  })
  return [
    `### sitehealth test: ${r.passed} passed, ${r.failed} failed, ${r.errors} not checked`,
    '',
    '| monitor | url | result | score | details |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}

/** Writes the report; returns what goes to stdout. */
export async function report(
  r: TestReport,
  reporter: Reporter,
  opts: { output?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  switch (reporter) {
    case 'json':
      return JSON.stringify(r, null, 2)
    case 'junit': {
      const xml = junitXml(r)
      if (!opts.output) return xml
      await writeFile(opts.output, xml)
      return human(r)
    }
    case 'github': {
      const summary = opts.output ?? (opts.env ?? process.env).GITHUB_STEP_SUMMARY
      if (summary) await appendFile(summary, markdown(r))
      return githubAnnotations(r)
    }
    default:
      return human(r)
  }
}
