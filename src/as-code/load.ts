/**
 * Reading `sitehealth.yaml`: YAML parsed by the `yaml` package (it keeps every node's position),
 * `${VAR}` substituted in channel values from the environment, validated against the file shape
 * (contract/file-schema.ts), then checked across sections (refs unique, channels and monitors that
 * exist). Every problem is reported as `FILE:LINE:COL: message`, all at once, before anything is
 * applied.
 */
import { readFile } from 'node:fs/promises'
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml'
import type { z } from 'zod'
import { readTargetUrl } from '../contract/index.js'
import { providerFace, type ChannelType } from '../contract/channels.js'
import { MONITOR_TYPE_FACES, typeFace } from '../contract/monitor-types/index.js'
import { parseEvery } from '../contract/durations.js'
import {
  PLACEHOLDER,
  SitehealthFile,
  type FileMaintenance,
  type FileMonitor,
  type FileStatusPage,
} from '../contract/file-schema.js'

export const DEFAULT_FILE = 'sitehealth.yaml'

/** A channel of the file with its `${VAR}` resolved; `source` is the value as written. */
export interface LoadedChannel {
  name: string
  type: ChannelType
  target: string
  source: string
}

export interface LoadedMonitor extends Omit<FileMonitor, 'every' | 'grace' | 'timeout' | 'channels'> {
  /** Types that watch a host: `timeout` in seconds. */
  timeout_seconds?: number
  interval_seconds?: number
  /** Heartbeat monitors: `grace` in seconds. */
  grace_seconds?: number
  channels: string[]
}

export interface Loaded {
  file: string
  channels: Map<string, LoadedChannel>
  monitors: LoadedMonitor[]
  status_pages: FileStatusPage[]
  maintenance: FileMaintenance[]
}

/** One or more problems with the file; `message` lists them one a line. */
export class FileError extends Error {
  override readonly name = 'FileError'
  readonly code = 'invalid_file'
  constructor(readonly problems: string[]) {
    super(problems.join('\n'))
  }
}

/** The types whose runs are pushed, the ones that take `grace`, as its refusal names them. */
const PUSHED = Object.values(MONITOR_TYPE_FACES)
  .filter((f) => f.pushed)
  .map((f) => f.type)
  .join(', ')

type Path = (string | number)[]

class Locator {
  constructor(
    private readonly file: string,
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  /** The position of the node at `path` (of `key`'s key node under it), or of its nearest parent. */
  at(path: Path, key?: string): string {
    let node: unknown = this.doc.contents
    let found: unknown = node
    const steps = key === undefined ? path : [...path, key]
    steps.forEach((p, i) => {
      if (node === undefined) return
      if (isMap(node)) {
        const pair = node.items.find(
          (it) => isPair(it) && isScalar(it.key) && String(it.key.value) === String(p),
        )
        node = !pair ? undefined : key !== undefined && i === steps.length - 1 ? pair.key : pair.value
      } else if (isSeq(node) && typeof p === 'number') node = node.items[p]
      else node = undefined
      if (node) found = node
    })
    const range = (found as Node | undefined)?.range
    const { line, col } = this.lines.linePos(range ? range[0] : 0)
    return `${this.file}:${line}:${col}`
  }
}

/** `${VAR}` from the environment (`$$` is a literal `$`); the names that are missing. */
export function substitute(text: string, env: NodeJS.ProcessEnv): { value: string; missing: string[] } {
  const missing: string[] = []
  const value = text.replace(PLACEHOLDER, (whole, name: string | undefined) => {
    if (whole === '$$') return '$'
    const v = env[name!]
    if (v === undefined || v === '') {
      missing.push(name!)
      return ''
    }
    return v
  })
  return { value, missing }
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')}`
  if (issue.code === 'invalid_union' && issue.path.at(-1) !== undefined) return issue.message
  return issue.message
}

/** Parses and checks the text of a file; throws FileError with every problem found. */
export function loadText(text: string, file: string, env: NodeJS.ProcessEnv = process.env): Loaded {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true })
  if (doc.errors.length > 0)
    throw new FileError(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0]
        return `${file}:${pos?.line ?? 1}:${pos?.col ?? 1}: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`
      }),
    )
  const where = new Locator(file, doc, lines)
  const raw: unknown = doc.toJS() ?? {}
  const parsed = SitehealthFile.safeParse(raw)
  if (!parsed.success)
    throw new FileError(
      parsed.error.issues.map((i) => {
        const path = i.path as Path
        const loc = i.code === 'unrecognized_keys' ? where.at(path, i.keys[0]) : where.at(path)
        const field = path.length ? ` (${path.join('.')})` : ''
        return `${loc}: ${issueMessage(i)}${field}`
      }),
    )
  return crossCheck(parsed.data, file, where, env)
}

function crossCheck(
  data: z.infer<typeof SitehealthFile>,
  file: string,
  where: Locator,
  env: NodeJS.ProcessEnv,
): Loaded {
  const problems: string[] = []
  const channels = new Map<string, LoadedChannel>()
  for (const [name, c] of Object.entries(data.channels ?? {})) {
    const ch = c as { type: ChannelType } & Record<string, string>
    const face = providerFace(ch.type)
    const field = face.target
    const source = String(ch[field])
    const { value, missing } = substitute(source, env)
    for (const v of missing)
      problems.push(`${where.at(['channels', name, field])}: environment variable ${v} is not set`)
    const target = face.fields[field].trim ? value.trim() : value
    // a placeholder passed the file's shape; its value must pass the field's own
    const checked = missing.length === 0 && value !== source && face.fields[field].schema.safeParse(target)
    if (checked && !checked.success)
      problems.push(
        `${where.at(['channels', name, field])}: ${issueMessage(checked.error.issues[0])} (the value of ${source})`,
      )
    channels.set(name, { name, type: ch.type, target, source })
  }
  const refs = new Set<string>()
  const monitors: LoadedMonitor[] = []
  ;(data.monitors ?? []).forEach((m, i) => {
    if (refs.has(m.ref)) problems.push(`${where.at(['monitors', i, 'ref'])}: duplicate ref "${m.ref}"`)
    refs.add(m.ref)
    let url = m.url
    const face = typeFace(m.type)
    if (!face.url && m.url !== undefined)
      problems.push(`${where.at(['monitors', i, 'url'])}: a ${face.noun} monitor has no url (${face.noUrl})`)
    else if (!face.pushed && m.grace !== undefined)
      problems.push(
        `${where.at(['monitors', i, 'grace'])}: grace is for ${PUSHED} monitors (type: ${PUSHED})`,
      )
    if (!face.url) url = undefined
    else if (m.url === undefined)
      problems.push(`${where.at(['monitors', i])}: monitor "${m.ref}" needs a url`)
    else if (m.url.includes('${'))
      problems.push(`${where.at(['monitors', i, 'url'])}: \${VAR} is only substituted in channels`)
    else {
      // the one rule of `check` and `monitors create`: a bare host means https
      const read = readTargetUrl(m.url)
      if ('problem' in read) problems.push(`${where.at(['monitors', i, 'url'])}: ${read.problem}`)
      else url = read.url
    }
    hostProblems(m, face, (path, words) => problems.push(`${where.at(['monitors', i, ...path])}: ${words}`))
    let interval: number | undefined
    if (m.every !== undefined) {
      interval = typeof m.every === 'number' ? m.every : parseEvery(m.every)
      if (interval === undefined) problems.push(`${where.at(['monitors', i, 'every'])}: not an interval`)
    }
    let grace: number | undefined
    if (m.grace !== undefined) {
      grace = typeof m.grace === 'number' || /^\s*0\s*$/.test(m.grace) ? Number(m.grace) : parseEvery(m.grace)
      if (grace === undefined) problems.push(`${where.at(['monitors', i, 'grace'])}: not a duration`)
    }
    ;(m.channels ?? []).forEach((c, j) => {
      if (!channels.has(c))
        problems.push(`${where.at(['monitors', i, 'channels', j])}: no channel named "${c}" under channels:`)
    })
    let timeout: number | undefined
    if (m.timeout !== undefined) {
      timeout = typeof m.timeout === 'number' ? m.timeout : parseEvery(m.timeout)
      if (timeout === undefined) problems.push(`${where.at(['monitors', i, 'timeout'])}: not a duration`)
    }
    const { every: _e, grace: _g, timeout: _t, channels: names, ...rest } = m
    monitors.push({
      ...rest,
      url,
      interval_seconds: interval,
      grace_seconds: grace,
      ...(timeout !== undefined ? { timeout_seconds: timeout } : {}),
      channels: names ?? [],
    })
  })
  const slugs = new Set<string>()
  ;(data.status_pages ?? []).forEach((p, i) => {
    if (slugs.has(p.slug))
      problems.push(`${where.at(['status_pages', i, 'slug'])}: duplicate slug "${p.slug}"`)
    slugs.add(p.slug)
    p.monitors.forEach((r, j) => {
      if (!refs.has(r))
        problems.push(
          `${where.at(['status_pages', i, 'monitors', j])}: no monitor with ref "${r}" in this file`,
        )
    })
  })
  const names = new Set<string>()
  ;(data.maintenance ?? []).forEach((w, i) => {
    if (names.has(w.name))
      problems.push(`${where.at(['maintenance', i, 'name'])}: duplicate name "${w.name}"`)
    names.add(w.name)
    if (w.monitors !== 'all')
      w.monitors.forEach((r, j) => {
        if (!refs.has(r))
          problems.push(
            `${where.at(['maintenance', i, 'monitors', j])}: no monitor with ref "${r}" in this file`,
          )
      })
  })
  if (problems.length > 0) throw new FileError(problems)
  return {
    file,
    channels,
    monitors,
    status_pages: data.status_pages ?? [],
    maintenance: data.maintenance ?? [],
  }
}

/** Reads and checks a file; a file that cannot be read is a FileError too. */
export async function loadFile(file: string, env: NodeJS.ProcessEnv = process.env): Promise<Loaded> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    throw new FileError([
      code === 'ENOENT'
        ? `${file}: no such file (write one, or \`sitehealth pull --file ${file}\` to start from your account)`
        : `${file}: cannot read it (${code ?? (err as Error).message})`,
    ])
  }
  return loadText(text, file, env)
}

/** A monitor's host fields against its type: a host where it watches one, a port where it takes one. */
function hostProblems(
  m: FileMonitor,
  face: ReturnType<typeof typeFace>,
  problem: (path: (string | number)[], words: string) => void,
): void {
  // the fields of one type only (the API refuses them too, naming the field)
  const own = { record_type: 'dns', resolver: 'dns', count: 'ping' } as const
  for (const [f, type] of Object.entries(own) as [keyof typeof own, string][])
    if (m[f] !== undefined && face.type !== type) problem([f], `a ${face.noun} monitor has no ${f}`)
  if (face.type === 'dns' && m.record_type === undefined)
    problem([], `monitor "${m.ref}" needs a record_type (type: dns)`)
  if (!face.host) {
    for (const f of ['host', 'port', 'timeout', 'starttls'] as const)
      if (m[f] !== undefined) problem([f], `a ${face.noun} monitor has no ${f}`)
    return
  }
  if (m.host === undefined) problem([], `monitor "${m.ref}" needs a host (type: ${face.type})`)
  if (face.port === 'required' && m.port === undefined)
    problem([], `monitor "${m.ref}" needs a port (type: ${face.type})`)
  if (face.port === 'none' && m.port !== undefined) problem(['port'], `a ${face.noun} monitor has no port`)
}
