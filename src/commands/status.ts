import { ClientCommand } from '../cli/base-command.js'
import { renderStatus } from '../cli/render/service.js'
import { fetchStatus } from '../cli/service-status.js'

export default class Status extends ClientCommand<typeof Status> {
  static override summary = 'Show whether the API is up, and what it offers.'
  static override description = `Calls the health and metadata routes (no API key needed) and shows the service, its version, its capabilities, the docs and OpenAPI URLs, and the API URL used.

--json prints {"api_url", "health", "meta"}: the two API bodies as returned, and the URL they came from.`

  static override examples = [
    '<%= config.bin %> status',
    '<%= config.bin %> status --api-url https://health.example.com',
    '<%= config.bin %> status --json',
  ]

  async run(): Promise<void> {
    const client = await this.client()
    const status = await this.spin(`Asking ${client.baseUrl}…`, () => fetchStatus(client))
    this.emit({ api_url: status.apiUrl, health: status.health, meta: status.meta }, (view) =>
      renderStatus(view, status),
    )
  }
}
