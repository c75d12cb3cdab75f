/// <reference lib="dom" />
/**
 * The monitor page's history chart (uPlot: small, fast, maintained, no dependencies): health
 * score and response time over time. The same numbers are in a table beside it for screen readers
 * and for when scripts are off.
 */
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

interface Series {
  t: number[]
  score: (number | null)[]
  ms: (number | null)[]
}

const el = document.getElementById('history-chart')
const data = document.getElementById('history-data')
if (el && data) {
  const s = JSON.parse(data.textContent ?? '{}') as Series
  const dark = matchMedia('(prefers-color-scheme: dark)').matches
  const axis = { stroke: dark ? '#d0d7de' : '#24292f', grid: { stroke: dark ? '#30363d' : '#e1e4e8' } }
  const width = () => Math.max(240, Math.min(el.clientWidth, 1100))
  const plot = new uPlot(
    {
      width: width(),
      height: 260,
      series: [
        {},
        { label: 'Health score', stroke: dark ? '#58a6ff' : '#0969da', width: 2, scale: 'score' },
        { label: 'Response time (ms)', stroke: dark ? '#f0883e' : '#bc4c00', width: 2, scale: 'ms' },
      ],
      scales: { score: { range: [0, 100] } },
      axes: [axis, { ...axis, scale: 'score' }, { ...axis, scale: 'ms', side: 1 }],
    },
    [s.t, s.score, s.ms],
    el,
  )
  new ResizeObserver(() => plot.setSize({ width: width(), height: 260 })).observe(el)
}
