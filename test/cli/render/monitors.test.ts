import { describe, expect, it } from 'vitest'
import { renderMonitor, renderRuns } from '../../../src/cli/render/monitors.js'
import { plainView } from '../../../src/cli/render/view.js'
import type { Monitor, MonitorRun } from '../../../src/contract/monitors.js'

const assertion = (
  over: Partial<MonitorRun['assertions'][number]> = {},
): MonitorRun['assertions'][number] => ({
  source: 'status_code',
  property: null,
  comparison: 'equals',
  target: 200,
  passed: true,
  actual: 200,
  ...over,
})

const run = (assertions: MonitorRun['assertions']): MonitorRun => ({
  id: 'r1',
  started_at: '2026-11-26T04:15:56.341Z',
  outcome: 'saved',
  trigger: 'schedule',
  check_id: '01a21611-3687-716e-b42b-72a1c723ba23',
  health_score: 49,
  response_time_ms: 83,
  state: 'pending',
  error: null,
  assertions,
  details: null,
})

describe('monitors runs: what each run made of the assertions', () => {
  it('names the assertion that failed and what it saw, so a failing run is not a silent "saved"', () => {
    const out = renderRuns(
      plainView({ tty: false }),
      {
        runs: [
          run([
            assertion(),
            assertion({
              source: 'json_body',
              property: '$.status',
              target: 'ok',
              passed: false,
              actual: null,
            }),
          ]),
        ],
        next_cursor: null,
      },
      'm1',
    )
    // tab-separated for scripts (no header row): the assertions are the last column
    expect(out.split('\n')[0].split('\t').at(-1)).toBe(
      '1 of 2 failed: json_body $.status equals ok (saw nothing)',
    )
  })

  it('says they held, and "-" for a monitor without assertions', () => {
    const page = { runs: [run([assertion(), assertion()]), run([])], next_cursor: null }
    const lines = renderRuns(plainView({ tty: false }), page, 'm1').split('\n')
    expect(lines[0].split('\t').at(-1)).toBe('2/2 held')
    expect(lines[1].split('\t').at(-1)).toBe('-')
  })
})

describe('monitors get: the assertions a monitor carries', () => {
  it('lists each assertion in the words `--assert` takes', () => {
    const m = {
      id: '01a21611-359e-70a1-82b7-0fa4e819d550',
      ref: null,
      type: 'http',
      url: 'https://shop.example/api/health',
      name: 'shop',
      interval_seconds: 60,
      pagespeed: 'estimate',
      grace_seconds: null,
      paused: false,
      paused_reason: null,
      state: 'up',
      last_check: null,
      next_run_at: null,
      created_at: '2026-11-26T04:15:56.341Z',
      updated_at: '2026-11-26T04:15:56.341Z',
      alerts: { down_after: 2, recover_after: 1, remind_every_minutes: null, min_score: null },
      channels: [],
      assertions: [
        { source: 'status_code', comparison: 'equals', target: 200 },
        { source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' },
      ],
      tags: [],
      uptime: { '24h': null, '7d': null, '30d': null },
    } as unknown as Monitor
    const out = renderMonitor(plainView(), m)
    expect(out).toMatch(/assertions\n {4}status_code equals 200\n {4}json_body \$\.status equals ok/)
  })
})
