/**
 * The storage contract suite: the same tests against every backend, so they cannot drift
 * (unjs/unstorage's testDriver pattern). A backend's test file calls
 * `describeStoreContract(name, harness)`; behaviour only one backend has (the data-dir lock, file
 * modes, kill -9 of the writer, SQL specifics) stays in that backend's own tests.
 */
import { afterEach, beforeEach, describe } from 'vitest'
import type { Store } from '../../../src/store/types.js'
import { accountsContract } from './accounts.js'
import { checksContract } from './checks.js'
import { keysContract } from './keys.js'
import { definitionsContract } from './definitions.js'
import { scheduleContract } from './schedule.js'
import { runLogContract } from './run-log.js'
import { deliveryQueueContract } from './delivery-queue.js'
import { channelsContract } from './channels.js'
import { historyContract } from './history.js'
import { locationsContract } from './locations.js'
import { statusPagesContract } from './status-pages.js'
import { statusCommsContract } from './status-comms.js'
import { statusOutboxContract } from './status-outbox.js'
import { maintenanceContract } from './maintenance.js'
import { gaugesContract } from './gauges.js'
import { usersContract } from './users-credits.js'

export interface ContractOptions {
  /** Clock in epoch ms for created_at (tests of same-millisecond commits). */
  now?: () => number
  /** Lease of a credit reservation, ms. */
  leaseMs?: number
  /** Raw runs and events kept per monitor (serve --history-runs). */
  monitorHistory?: number
}

/** How the suite gets stores of one backend. */
export interface StoreHarness {
  /** A store on fresh, empty storage. */
  open(opts?: ContractOptions): Promise<Store>
  /** Closes `store` and opens the same storage again. */
  reopen(store: Store, opts?: ContractOptions): Promise<Store>
  /** Removes all storage this harness created (stores are closed already). */
  dispose(): Promise<void>
  /** Every byte `store` keeps, as text: its data dir's files, or its schema's rows. */
  raw(store: Store): Promise<string>
}

/** What each part of the suite is given: stores opened through it are closed after each test. */
export interface ContractContext {
  open(opts?: ContractOptions): Promise<Store>
  reopen(store: Store, opts?: ContractOptions): Promise<Store>
  raw(store: Store): Promise<string>
}

export function describeStoreContract(name: string, makeHarness: () => Promise<StoreHarness>): void {
  describe(`store contract: ${name}`, () => {
    let harness: StoreHarness
    const opened = new Set<Store>()
    beforeEach(async () => {
      harness = await makeHarness()
    })
    afterEach(async () => {
      for (const s of opened) await s.close()
      opened.clear()
      await harness.dispose()
    })
    const ctx: ContractContext = {
      async open(opts) {
        const s = await harness.open(opts)
        opened.add(s)
        return s
      },
      async reopen(store, opts) {
        opened.delete(store)
        const s = await harness.reopen(store, opts)
        opened.add(s)
        return s
      },
      raw: (store) => harness.raw(store),
    }
    describe('users and credits', () => usersContract(ctx))
    describe('keys', () => keysContract(ctx))
    describe('checks', () => checksContract(ctx))
    describe('accounts', () => accountsContract(ctx))
    describe('monitor definitions', () => definitionsContract(ctx))
    describe('schedule', () => scheduleContract(ctx))
    describe('run log', () => runLogContract(ctx))
    describe('delivery queue', () => deliveryQueueContract(ctx))
    describe('channels at rest', () => channelsContract(ctx))
    describe('history', () => historyContract(ctx))
    describe('locations', () => locationsContract(ctx))
    describe('status pages', () => statusPagesContract(ctx))
    describe('status page incidents, subscribers, domains', () => statusCommsContract(ctx))
    describe('status page subscriber outbox', () => statusOutboxContract(ctx))
    describe('maintenance windows', () => maintenanceContract(ctx))
    describe('monitor gauges', () => gaugesContract(ctx))
  })
}
