/** Examples of the status-page bodies (docs/decisions.md#the-public-face) for /openapi.json and /docs; examples.ts spreads them in. */
import type {
  PublicStatusPage,
  StatusPage,
  StatusPageCreate,
  StatusPageList,
  StatusPagePatch,
} from './status-pages.js'

const MONITOR_A = '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d'
const MONITOR_B = '0193a5c5-1a2b-7c3d-8e4f-5a6b7c8d9e0f'

const statusPageCreate: StatusPageCreate = {
  slug: 'acme',
  title: 'Acme status',
  monitor_ids: [MONITOR_A, MONITOR_B],
  description: 'Live status of the Acme shop and API.',
  show_urls: false,
}
const statusPagePatch: StatusPagePatch = { title: 'Acme Inc. status', show_urls: true }
const statusPage: StatusPage = {
  id: '0193a5d0-3c4d-7e5f-8a6b-7c8d9e0f1a2b',
  slug: 'acme',
  title: 'Acme status',
  description: 'Live status of the Acme shop and API.',
  monitor_ids: [MONITOR_A, MONITOR_B],
  show_urls: false,
  public_url: 'https://sitehealth.example.com/status/acme',
  created_at: '2026-11-23T09:14:07.412Z',
  updated_at: '2026-11-23T09:14:07.412Z',
}
const statusPageList: StatusPageList = { status_pages: [statusPage] }

const days = (percents: (number | null)[]) =>
  percents.map((p, i) => ({
    date: new Date(Date.UTC(2026, 10, 25 - (percents.length - 1 - i))).toISOString().slice(0, 10),
    uptime_percent: p,
  }))

const publicStatusPage: PublicStatusPage = {
  slug: 'acme',
  title: 'Acme status',
  description: 'Live status of the Acme shop and API.',
  state: 'partial_outage',
  generated_at: '2026-11-25T10:00:00.000Z',
  monitors: [
    {
      id: MONITOR_A,
      name: 'Shop',
      state: 'up',
      uptime: { '24h': 100, '7d': 99.95, '30d': 99.98 },
      uptime_90d: 99.99,
      days: days([100, 99.86, 100]),
    },
    {
      id: MONITOR_B,
      name: 'API',
      state: 'down',
      uptime: { '24h': 93.75, '7d': 99.1, '30d': 99.79 },
      uptime_90d: 99.93,
      days: days([100, 100, 93.75]),
    },
  ],
  maintenance: [
    {
      name: 'Database upgrade',
      starts_at: '2026-11-28T02:00:00.000Z',
      ends_at: '2026-11-28T03:00:00.000Z',
      active: false,
      monitor_ids: [MONITOR_B],
    },
  ],
  incidents: [
    {
      monitor_id: MONITOR_B,
      monitor_name: 'API',
      started_at: '2026-11-25T08:30:00.000Z',
      ended_at: null,
      duration_seconds: 5400,
    },
  ],
}

export const STATUS_PAGE_EXAMPLES: Record<string, unknown> = {
  StatusPageCreate: statusPageCreate,
  StatusPagePatch: statusPagePatch,
  StatusPage: statusPage,
  StatusPageList: statusPageList,
  PublicStatusPage: publicStatusPage,
}
