import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Command, Flags } from '@oclif/core'
import { DataDirLockedError, DatabaseError } from '../../store/index.js'
import { UnsealedChannelsError } from '../../store/channels.js'
import { redactUrl } from '../../store/postgres/url.js'

export default class DbImport extends Command {
  static override summary =
    'Copy an embedded data dir (users, balances, keys, checks, monitors, accounts) into PostgreSQL.'
  static override description = `Moves an embedded deployment to PostgreSQL: every user with its balance, every API key (revoked ones too) and every saved check, with the same ids and created_at, so recent-check paging is identical; every monitor with its runs, events and alert channels; every dashboard account with its live sessions, invite links and login requests. Stop the embedded serve first (the data dir stays locked while it runs); the data dir is only read (one an older version wrote has its alert channels sealed first, as serve would at start).

Alert channels' sealed credentials (their URLs and webhook signing secrets) are re-sealed for PostgreSQL: set SITEHEALTH_ADMIN_TOKEN to the token the PostgreSQL instances will use (their sealing key is derived from it), or SITEHEALTH_SECRET_KEY if they set one. The embedded key is read from <data-dir>/secret-key (or SITEHEALTH_SECRET_KEY). Without the keys the import stops before copying anything.

Running it again changes nothing: what is already in the database is left as it is. A user that already exists in the database keeps its balance.

Shows a progress bar on a terminal, then a summary of what was copied. --json prints the summary as JSON.`

  static override examples = [
    '<%= config.bin %> db import --data-dir ~/.local/share/sitehealth --database-url postgres://sitehealth@127.0.0.1/sitehealth',
  ]

  static override flags = {
    'data-dir': Flags.string({
      description: 'The embedded store to copy (default: the oclif data dir, as for serve).',
      env: 'SITEHEALTH_DATA_DIR',
    }),
    'database-url': Flags.string({
      description: 'PostgreSQL URL (postgres://user:pass@host:5432/db?sslmode=...).',
      env: 'SITEHEALTH_DATABASE_URL',
      required: true,
    }),
    json: Flags.boolean({ description: 'Print the summary as JSON.', default: false }),
  }

  /** One line on stderr and exit 1: these are settings to fix, not bugs (no stack, no wrapping). */
  private fail(message: string): never {
    process.stderr.write(`Error: ${message}\n`)
    return this.exit(1)
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(DbImport)
    const dataDir = flags['data-dir'] ?? this.config.dataDir
    const url = flags['database-url']
    const st = await stat(dataDir).catch(() => undefined)
    if (!st?.isDirectory())
      this.fail(`No data directory at ${dataDir}: give the embedded store with --data-dir.`)

    const { openLowdbStore } = await import('../../store/embedded/index.js')
    const { openPostgresStore } = await import('../../store/postgres/index.js')
    const { importDataDir, resealer, ImportError } = await import('../../store/postgres/import.js')
    const { deriveSecretKey, secretBox } = await import('../../shared/index.js')
    // the keys serve would use: embedded, the env key or the data dir's file; PostgreSQL, the env
    // key or one derived from the admin token (src/serve/start.ts)
    const envKey = process.env.SITEHEALTH_SECRET_KEY || undefined
    const fileKey = (await readFile(join(dataDir, 'secret-key'), 'utf8').catch(() => '')).trim() || undefined
    const adminToken = process.env.SITEHEALTH_ADMIN_TOKEN || undefined
    const reseal = resealer({
      source: [envKey, fileKey].filter((k): k is string => k !== undefined),
      target: envKey ?? (adminToken ? deriveSecretKey(adminToken) : undefined),
    })
    let source
    let target
    // channels an older version stored in clear are sealed with the key the embedded serve used
    const sourceKey = envKey ?? fileKey
    const { channelSealer } = await import('../../monitors/index.js')
    try {
      source = await openLowdbStore(dataDir, {
        sealChannels: sourceKey === undefined ? undefined : channelSealer(secretBox(sourceKey)),
      })
      target = await openPostgresStore({ url, poolSize: 2 })
    } catch (err) {
      await source?.close()
      if (
        err instanceof DataDirLockedError ||
        err instanceof DatabaseError ||
        err instanceof UnsealedChannelsError
      )
        this.fail(err.message)
      throw err
    }

    const tty = Boolean(process.stderr.isTTY) && !flags.json
    const { SingleBar, Presets } = await import('cli-progress')
    const bar = tty
      ? new SingleBar(
          {
            format: 'Copying checks [{bar}] {percentage}% {value}/{total}',
            stream: process.stderr,
            hideCursor: true,
          },
          Presets.shades_classic,
        )
      : undefined
    let started = false
    let summary
    try {
      summary = await importDataDir(source, target, {
        reseal,
        onProgress: ({ done, total }) => {
          if (!bar) return
          if (!started) {
            bar.start(total, 0)
            started = true
          }
          bar.update(done)
        },
      })
    } catch (err) {
      bar?.stop()
      await source.close()
      await target.close()
      if (err instanceof DatabaseError || err instanceof ImportError) this.fail(err.message)
      this.fail(`Import failed: ${(err as Error).message.split('\n')[0]}`)
    }
    bar?.stop()
    await source.close()
    await target.close()

    if (flags.json) {
      process.stdout.write(JSON.stringify(summary) + '\n')
      return
    }
    const line = (what: string, c: { copied: number; present: number }, extra = '') =>
      `  ${what.padEnd(12)} ${String(c.copied).padStart(8)} copied${extra}, ${c.present} already there\n`
    process.stdout.write(
      `Imported ${dataDir} into ${redactUrl(url)}:\n` +
        line('users', summary.users) +
        line('keys', summary.keys, ` (${summary.keys.revoked} revoked)`) +
        line('checks', summary.checks) +
        line(
          'monitors',
          summary.monitors,
          ` (${summary.monitors.runs} runs, ${summary.monitors.events} events, ${summary.monitors.rollups} uptime buckets, ${summary.monitors.incidents} incidents)`,
        ) +
        line(
          'accounts',
          summary.accounts,
          ` (${summary.accounts.sessions} sessions, ${summary.accounts.invites} invites, ${summary.accounts.device_grants} login requests)`,
        ) +
        line('status pages', summary.status_pages) +
        line('maintenance', summary.maintenance_windows),
    )
  }
}
