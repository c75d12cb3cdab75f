/**
 * How `test` reports: human lines, JSON, JUnit XML and GitHub Actions (`::error` workflow commands
 * plus a Markdown table appended to $GITHUB_STEP_SUMMARY).
 *
 * JUnit: one testsuite, one testcase per monitor, one `<failure>` per failed assertion with what
 * was expected and what was seen, `<error>` for a site that could not be checked. Written with
 * fast-xml-parser's XMLBuilder (it escapes every attribute and text): junit-report-builder, tried
 * first, allows a single failure per testcase.
 */
import { appendFile, writeFile } from 'node:fs/promises'
import { XMLBuilder } from 'fast-xml-parser'
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

/** Characters XML 1.0 cannot hold at all, even escaped: dropped from what a site sent. */
const xmlSafe = (text: string) =>
  text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')

export function junitXml(r: TestReport): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  const total = r.tests.reduce((sum, t) => sum + t.duration_ms, 0)
  const counts = {
    '@_tests': r.tests.length,
    '@_failures': r.failed,
    '@_errors': r.errors,
    '@_time': seconds(total),
  }
  const testcase = r.tests.map((t) => ({
    '@_classname': 'sitehealth',
    '@_name': xmlSafe(`${t.ref} ${t.url}`),
    '@_time': seconds(t.duration_ms),
    ...(t.outcome === 'failed'
      ? {
          failure: t.failures.map((f) => ({
            '@_message': xmlSafe(`${f.assertion}: expected ${f.expected}, actual ${f.actual}`),
            '@_type': 'assertion',
            '#text': xmlSafe(`assertion: ${f.assertion}\nexpected: ${f.expected}\nactual: ${f.actual}`),
          })),
        }
      : {}),
    ...(t.outcome === 'error'
      ? {
          error: {
            '@_message': xmlSafe(t.error ?? 'could not be checked'),
            '@_type': 'check_failed',
          },
        }
      : {}),
  }))
  const doc = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': xmlSafe(`sitehealth ${r.file}`),
      ...counts,
      testsuite: { '@_name': xmlSafe(`sitehealth ${r.file}`), ...counts, '@_skipped': 0, testcase },
    },
  }
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true })
  return builder.build(doc) as string
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
