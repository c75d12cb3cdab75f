import { AdminCommand } from '../../cli/base-command.js'
import { renderTable } from '../../cli/render/table.js'
import { formatTime } from '../../cli/render/format.js'

export default class UsersList extends AdminCommand<typeof UsersList> {
  static override summary = 'Admin: list dashboard accounts.'
  static override description = `Shows every account: email, user id, role, credits, whether a password is set, and whether it is disabled.

--json prints the API body ({users: [...]}).`

  static override examples = ['<%= config.bin %> users list', '<%= config.bin %> users list --json']

  async run(): Promise<void> {
    const { client } = await this.adminClient()
    const list = await this.spin('Loading accounts…', () => client.listUsers())
    this.emitList(
      list,
      (view) =>
        renderTable(
          view,
          [
            { header: 'email', shrink: true, minWidth: 12 },
            { header: 'user', shrink: true, minWidth: 6 },
            { header: 'role' },
            { header: 'credits' },
            { header: 'status' },
            { header: 'created', dropOrder: 1 },
          ],
          list.users.map((u) => [
            u.email,
            u.user_id,
            u.admin ? 'admin' : 'user',
            String(u.credits_remaining),
            u.disabled_at
              ? { text: 'disabled', paint: view.style.red }
              : u.password_set
                ? 'active'
                : { text: 'invited', paint: view.style.yellow },
            { text: formatTime(u.created_at), full: u.created_at },
          ]),
        ),
      list.users.length === 0
        ? 'No accounts yet. Create one with `sitehealth users create --email E --admin`.'
        : `${list.users.length} account${list.users.length === 1 ? '' : 's'}.`,
      list.users.length === 0,
    )
  }
}
