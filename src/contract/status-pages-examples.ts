/** Examples of the status-page bodies (docs/decisions.md#the-public-face) for /openapi.json and /docs; examples.ts spreads them in. */
import type {
  PublicStatusIncident,
  PublicStatusPage,
  StatusIncident,
  StatusIncidentCreate,
  StatusIncidentList,
  StatusIncidentPatch,
  StatusIncidentUpdateCreate,
  StatusPage,
  StatusPageCreate,
  StatusPageList,
  StatusPagePatch,
  SubscribeAccepted,
  SubscribeRequest,
  SubscriberList,
} from './status-pages.js'

const MONITOR_A = '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d'
const MONITOR_B = '0193a5c5-1a2b-7c3d-8e4f-5a6b7c8d9e0f'

const statusPageCreate: StatusPageCreate = {
  slug: 'acme',
  title: 'Acme status',
  monitor_ids: [MONITOR_A, MONITOR_B],
  description: 'Live status of the Acme shop and API.',
  show_urls: false,
  auto_incidents: true,
  sections: [{ name: 'Storefront', monitor_ids: [MONITOR_A] }],
}
const statusPagePatch: StatusPagePatch = {
  title: 'Acme Inc. status',
  show_urls: true,
  domain: 'status.acme.example',
}
const statusPage: StatusPage = {
  id: '0193a5d0-3c4d-7e5f-8a6b-7c8d9e0f1a2b',
  slug: 'acme',
  title: 'Acme status',
  description: 'Live status of the Acme shop and API.',
  monitor_ids: [MONITOR_A, MONITOR_B],
  show_urls: false,
  auto_incidents: true,
  sections: [{ name: 'Storefront', monitor_ids: [MONITOR_A] }],
  domain: 'status.acme.example',
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

const INCIDENT = '0193a5e1-0a1b-7c2d-8e3f-4a5b6c7d8e9f'
const publicIncident: PublicStatusIncident = {
  id: INCIDENT,
  title: 'Checkout errors',
  status: 'identified',
  impact: 'major',
  monitor_ids: [MONITOR_B],
  created_at: '2026-11-25T08:35:00.000Z',
  updated_at: '2026-11-25T09:10:00.000Z',
  resolved_at: null,
  updates: [
    {
      id: '0193a5f2-7b8c-7d9e-8f0a-1b2c3d4e5f6a',
      status: 'identified',
      message: 'A failed database migration; rolling it back.',
      created_at: '2026-11-25T09:10:00.000Z',
    },
    {
      id: '0193a5e1-0a1c-7c2d-8e3f-4a5b6c7d8e9f',
      status: 'investigating',
      message: 'Some payments fail. We are looking into it.',
      created_at: '2026-11-25T08:35:00.000Z',
    },
  ],
}
const statusIncident: StatusIncident = {
  ...publicIncident,
  status_page_id: statusPage.id,
  draft: false,
}
const statusIncidentCreate: StatusIncidentCreate = {
  title: 'Checkout errors',
  status: 'investigating',
  message: 'Some payments fail. We are looking into it.',
  impact: 'major',
  monitor_ids: [MONITOR_B],
}
const statusIncidentPatch: StatusIncidentPatch = { draft: false, impact: 'critical' }
const statusIncidentUpdate: StatusIncidentUpdateCreate = {
  status: 'resolved',
  message: 'Payments work again; the failed ones were retried.',
}
const statusIncidentList: StatusIncidentList = { incidents: [statusIncident] }
const subscribeRequest: SubscribeRequest = { email: 'ops@customer.example' }
const subscribeAccepted: SubscribeAccepted = {
  ok: true,
  message:
    'If this address can receive mail, a confirmation link is on its way; nothing else is sent until it is followed.',
}
const subscriberList: SubscriberList = {
  subscribers: [
    {
      id: '0193a600-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
      type: 'email',
      target: 'ops@customer.example',
      created_at: '2026-11-24T12:00:00.000Z',
    },
  ],
  count: 1,
}

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
  status_incidents: [publicIncident],
  sections: [{ name: 'Storefront', monitor_ids: [MONITOR_A] }],
}

export const STATUS_PAGE_EXAMPLES: Record<string, unknown> = {
  StatusPageCreate: statusPageCreate,
  StatusPagePatch: statusPagePatch,
  StatusPage: statusPage,
  StatusPageList: statusPageList,
  PublicStatusPage: publicStatusPage,
  StatusIncidentCreate: statusIncidentCreate,
  StatusIncidentPatch: statusIncidentPatch,
  StatusIncidentUpdateCreate: statusIncidentUpdate,
  StatusIncident: statusIncident,
  StatusIncidentList: statusIncidentList,
  PublicPostedIncident: publicIncident,
  StatusSubscribeRequest: subscribeRequest,
  StatusSubscribeAccepted: subscribeAccepted,
  StatusSubscriberList: subscriberList,
}
