import type { AssertionSource } from '../monitoring.js'
import { intervalField, nameField, tagsField, type MonitorTypeFace } from './face.js'

/** What an http run can judge: the answer the check fetched, and the check's own figures. */
const HTTP_ASSERTION_SOURCES: readonly AssertionSource[] = [
  'status_code',
  'response_time',
  'text_body',
  'json_body',
  'header',
  'health_score',
  'certificate_days',
]

/** An http monitor: the service checks its url (the CLI's URL argument makes one). */
export const http: MonitorTypeFace = {
  type: 'http',
  noun: 'http',
  url: true,
  pushed: false,
  host: false,
  port: 'none',
  words: 'http (default): the service checks `url`.',
  form: {
    heading: 'Create a monitor',
    intro: 'A monitor re-checks a site on a schedule; every run is a saved check and costs 1 credit.',
    submit: 'Create monitor',
    fields: [
      {
        name: 'url',
        label: 'URL',
        input: 'url',
        hint: 'https://example.com',
        required: true,
        into: 'url',
        edit: { beside: 'name', from: 'url' },
      },
      nameField({ label: 'Name', required: false, hint: 'optional' }),
      tagsField(),
      intervalField('How often', 300),
    ],
  },
  assertions: HTTP_ASSERTION_SOURCES,
}
