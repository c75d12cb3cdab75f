/// <reference lib="dom" />
/**
 * The monitor page's history chart (uPlot: small, fast, maintained, no dependencies): health
 * score (left axis, 0–100) and response time (right axis, ms) of each run, with failed runs as
 * red marks at 0 so an outage is drawn rather than left as a gap. The same numbers are in the
 * runs table beside it, for screen readers and for when scripts are off. Drawn again when the
 * page refreshes its live parts (app.ts).
 */
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

interface Series {
  t: number[]
  score: (number | null)[]
  ms: (number | null)[]
  failed: (number | null)[]
}

const HOUR = 3600
let plot: uPlot | undefined
let observer: ResizeObserver | undefined

function draw(): void {
  plot?.destroy()
  observer?.disconnect()
  const el = document.getElementById('history-chart')
  const data = document.getElementById('history-data')
  if (!el || !data) return
  const s = JSON.parse(data.textContent ?? '{}') as Series
  const dark = matchMedia('(prefers-color-scheme: dark)').matches
  const fg = dark ? '#d0d7de' : '#24292f'
  const grid = { stroke: dark ? '#30363d' : '#e1e4e8' }
  const red = dark ? '#ff7b72' : '#cf222e'
  const width = () => Math.max(240, Math.min(el.clientWidth, 1100))
  const narrow = () => width() < 500
  // one run (or runs within a minute) would stretch the time axis over years: give it an hour each side
  const first = s.t[0] ?? 0
  const last = s.t[s.t.length - 1] ?? 0
  const xRange: uPlot.Range.MinMax = last - first < 60 ? [first - HOUR, last + HOUR] : [first, last]
  plot = new uPlot(
    {
      width: width(),
      height: 260,
      series: [
        {},
        {
          label: 'Health score',
          stroke: dark ? '#58a6ff' : '#0969da',
          width: 2,
          scale: 'score',
          spanGaps: false,
        },
        { label: 'Response time (ms)', stroke: dark ? '#f0883e' : '#bc4c00', width: 2, scale: 'ms' },
        {
          label: 'Failed run',
          stroke: red,
          fill: red,
          scale: 'score',
          width: 0,
          points: { show: true, size: 9, stroke: red, fill: red },
          paths: () => null,
        },
      ],
      scales: { x: { time: true, range: () => xRange }, score: { range: [0, 100] } },
      axes: [
        { stroke: fg, grid, space: narrow() ? 90 : 70 },
        { stroke: fg, grid, scale: 'score', label: 'Score', size: 50 },
        { stroke: fg, grid: { show: false }, scale: 'ms', side: 1, label: 'ms', size: 60 },
      ],
    },
    [s.t, s.score, s.ms, s.failed],
    el,
  )
  observer = new ResizeObserver(() => plot?.setSize({ width: width(), height: 260 }))
  observer.observe(el)
}

draw()
document.addEventListener('sitehealth:refreshed', draw)
