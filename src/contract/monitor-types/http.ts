import { intervalField, nameField, tagsField, type MonitorTypeFace } from './face.js'

/** An http monitor: the service checks its url (the CLI's URL argument makes one). */
export const http: MonitorTypeFace = {
  type: 'http',
  noun: 'http',
  url: true,
  pushed: false,
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
}
