import { Command, Flags } from '@oclif/core'
import { DatabaseError } from '../../store/errors.js'
import { redactUrl } from '../../store/postgres/url.js'

export default class DbMigrate extends Command {
  static override summary = 'Apply pending schema migrations to a PostgreSQL database.'
  static override description = `Brings the database's schema up to this version of sitehealth and exits. serve does the same at start (under a database lock, so instances starting together are safe); run this to migrate ahead of a deployment. A database already migrated by a newer sitehealth is refused. Alert channels stored in clear by an older version are sealed with the key serve uses: set SITEHEALTH_SECRET_KEY, or SITEHEALTH_ADMIN_TOKEN, as the instances do.

--json prints {schema, applied, present}.`

  static override examples = [
    '<%= config.bin %> db migrate --database-url postgres://sitehealth@127.0.0.1:5432/sitehealth',
    'SITEHEALTH_DATABASE_URL=postgres://... <%= config.bin %> db migrate',
  ]

  static override flags = {
    'database-url': Flags.string({
      description: 'PostgreSQL URL (postgres://user:pass@host:5432/db?sslmode=...).',
      env: 'SITEHEALTH_DATABASE_URL',
      required: true,
    }),
    json: Flags.boolean({ description: 'Print the result as JSON.', default: false }),
  }

  /** One line on stderr and exit 1: these are settings to fix, not bugs (no stack, no wrapping). */
  private fail(message: string): never {
    process.stderr.write(`Error: ${message}\n`)
    return this.exit(1)
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(DbMigrate)
    const url = flags['database-url']
    const { openPostgresStore } = await import('../../store/postgres/index.js')
    const { channelSealer, deriveSecretKey, secretBox } = await import('../../monitors/index.js')
    // the key serve would seal with (src/serve/start.ts), for channels an older version stored in clear
    const envKey = process.env.SITEHEALTH_SECRET_KEY || undefined
    const adminToken = process.env.SITEHEALTH_ADMIN_TOKEN || undefined
    const key = envKey ?? (adminToken ? deriveSecretKey(adminToken) : undefined)
    let store
    try {
      store = await openPostgresStore({
        url,
        poolSize: 1,
        sealChannels: key === undefined ? undefined : channelSealer(secretBox(key)),
      })
    } catch (err) {
      if (err instanceof DatabaseError) this.fail(err.message)
      throw err
    }
    const m = store.migration!
    await store.close()
    if (flags.json) {
      process.stdout.write(JSON.stringify(m) + '\n')
      return
    }
    const where = `${redactUrl(url)} (schema ${m.schema})`
    process.stdout.write(
      m.applied.length > 0
        ? `Migrated ${where}: applied ${m.applied.join(', ')}.\n`
        : `${where} is up to date (${m.present.at(-1) ?? 'no migrations'}).\n`,
    )
  }
}
