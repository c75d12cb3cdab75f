/**
 * Every migration, by name; names sort in the order they apply. Add a migration as a new file and
 * a new line here; never edit or remove one that was released.
 */
import type { Migration } from 'kysely'
import { initial } from './0001-initial.js'
import { monitors } from './0002-monitors.js'
import { accounts } from './0003-accounts.js'
import { deliveryLease } from './0004-delivery-lease.js'
import { statusPages } from './0006-status-pages.js'
import { monitorRef } from './0007-monitor-ref.js'
import { accountHardening } from './0008-account-hardening.js'
import { monitorHistory } from './0009-monitor-history.js'
import { maintenanceWindows } from './0010-maintenance-windows.js'
import { leanHistory } from './0011-lean-history.js'
import { rollupsFillfactor } from './0012-rollups-fillfactor.js'
import { statusComms } from './0013-status-comms.js'
import { runLocation } from './0014-run-location.js'
import { sealedChannels } from './0015-sealed-channels.js'
import { statusOutbox } from './0018-status-outbox.js'
import type { ChannelSealer } from '../../channels.js'

export const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-monitors': monitors,
  '0003-accounts': accounts,
  '0004-delivery-lease': deliveryLease,
  '0006-status-pages': statusPages,
  '0007-monitor-ref': monitorRef,
  '0008-account-hardening': accountHardening,
  '0009-monitor-history': monitorHistory,
  '0010-maintenance-windows': maintenanceWindows,
  '0011-lean-history': leanHistory,
  '0012-rollups-fillfactor': rollupsFillfactor,
  '0013-status-comms': statusComms,
  '0014-run-location': runLocation,
  // without a sealer: fails on a database holding channels in clear (see migrationsFor)
  '0015-sealed-channels': sealedChannels(undefined),
  '0018-status-outbox': statusOutbox,
}

/** What a migration may need beyond the database: the server's sealer of channels stored in clear. */
export interface MigrationContext {
  sealChannels?: ChannelSealer
}

/** Every migration, with those that need the server's help given it. */
export function migrationsFor(ctx: MigrationContext): Record<string, Migration> {
  return { ...MIGRATIONS, '0015-sealed-channels': sealedChannels(ctx.sealChannels) }
}
