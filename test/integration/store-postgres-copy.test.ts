// `eventwatch store copy` end to end: a SQLite cache filled by a real core polling two simulators
// (sessions, snapshots, viewer lists, alerts fired, acknowledged and resolved, webhooks and their
// outbox, a maintenance window, users, a sign-in, the audit, settings, a site's name), its secrets
// in this machine's keychain, copied by the CLI as a child process into a fresh PostgreSQL database
// with a key file. Then every row of every table is the same on both, the Store answers every read
// the same on both, new rows get ids past the copied ones, and a server on the copy polls both
// tenants with the sealed secrets alone (no keychain).
import { isDeepStrictEqual } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { COPIED_TABLES } from '../../src/main/core/store/copy/copy-plan'
import type { Store } from '../../src/main/core/store/interface/store'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { cleanupsAfterAll } from '../support/app-core'
import { runCli, type CliResult } from '../support/cli-processes'
import { fillCacheThroughCore, type FilledCache } from '../support/filled-cache'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'
import { everythingRead, roundedFractions } from '../support/store-reads'
import { writeKeyFile } from '../support/secret-key-files'
import { countsIn, rowsOnBoth, VIEWERS_ALIKE } from '../support/table-rows'
import { tempDirs } from '../support/temp-dirs'

const cleanups = cleanupsAfterAll()
const tempDir = tempDirs('eventwatch-store-copy-')
const TABLES = COPIED_TABLES.map((table) => table.name)
/** What the filled cache must hold for the test to mean something: every concern has rows. */
const FILLED = [
  'connections', 'sessions', 'snapshots', 'alerts', 'alert_transitions', 'alert_overrides', 'notification_pause', 'webhooks', 'webhook_outbox',
  'settings', 'maintenance_windows', 'sync_runs', 'diagnostics', 'users', 'user_sessions', 'user_settings', 'audit_log', 'site_names',
  'revisions', 'poller_status', 'alert_judged', 'alert_changes', 'viewer_lists', 'viewers', 'viewer_connections', 'viewer_breakdowns'
]

let filled: FilledCache
let target: TestDatabase
let keyFile: string
let copied: CliResult
let cache: Store
let copy: Store

beforeAll(async () => {
  filled = await fillCacheThroughCore(cleanups, tempDir())
  await intoThisMachinesKeychain(filled)
  target = await freshDatabase()
  keyFile = writeKeyFile(tempDir())
  copied = await runCli(['store', 'copy', '--from', filled.dbFile, '--to', target.url], { EVENTWATCH_SECRET_KEY_FILE: keyFile })
  cache = openSqliteStore(filled.dbFile)
  copy = await openPgStore(target.url)
}, 120_000)

/** The secrets where a team server keeps them: this machine's keychain (service "eventwatch"; the
 *  test's own Secret Service, /work/notes/kr.sh), removed after the file. */
async function intoThisMachinesKeychain({ dbFile, secrets }: FilledCache): Promise<void> {
  const store = openSqliteStore(dbFile)
  const accounts = [
    ...(await store.read.connections.list()).map((c) => c.id),
    ...(await store.read.webhooks.list()).flatMap((w) => [`webhook:${w.id}`, `webhook-url:${w.id}`])
  ]
  await store.close()
  const keychain = osKeychain()
  for (const account of accounts) {
    const secret = await secrets.read(account)
    if (secret === null) continue
    await keychain.save(account, secret)
    cleanups.add(() => keychain.remove(account))
  }
}

afterAll(async () => {
  await cache?.close()
  await copy?.close()
  await target?.drop()
})

it('copies every row of every table by the CLI, ids kept, and says how many of each it counted again', async () => {
  expect(copied.stderr).not.toMatch(/eventwatch:/)
  expect(copied.code).toBe(0)

  const { sqlite, postgres } = await rowsOnBoth(filled.dbFile, target.url, TABLES, VIEWERS_ALIKE)
  expect(FILLED.filter((table) => (sqlite[table]?.length ?? 0) === 0)).toEqual([])
  for (const table of TABLES) {
    expect(postgres[table], table).toEqual(sqlite[table])
    expect(copied.stdout).toMatch(new RegExp(`^  ${table} +${(sqlite[table]?.length ?? 0).toLocaleString('en-US')}$`, 'm'))
  }
  expect(copied.stdout).toMatch(/^Every table was counted again in PostgreSQL before the commit: [\d,]+ rows, ids kept\.$/m)
  // Two client secrets, a signing secret and a URL's secret query.
  expect(copied.stdout).toMatch(/^Sealed 4 secrets from this machine's keychain into the database under EVENTWATCH_SECRET_KEY_FILE\.$/m)
  expect(copied.stdout).not.toMatch(/keychain: the|stayed/)
}, 60_000)

it('answers every read of the Store the same from the copy as from the cache', async () => {
  const now = Date.now()
  const scope = { now }
  const fromCopy = await everythingRead(copy, scope)
  const fromCache = await everythingRead(cache, scope)
  expect(Object.keys(fromCopy).length).toBeGreaterThan(100)
  const differing = Object.keys(fromCache).filter((read) => !isDeepStrictEqual(roundedFractions(fromCopy[read]), roundedFractions(fromCache[read])))
  expect(differing).toEqual([])
}, 60_000)

// Last: it adds rows to the copy.
it('gives new rows ids past the copied ones', async () => {
  const now = Date.now()
  const newest = async (store: Store) => ({
    alert: Math.max(...(await store.read.alerts.list({ historyHours: 24 * 365 }, now)).map((a) => a.id)),
    window: Math.max(...(await store.read.maintenance.list()).map((w) => w.id)),
    audit: (await store.read.team.audit.list({ limit: 1 }))[0]!.id
  })
  const before = await newest(cache)
  const added = await copy.withTransaction(async (tx) => ({
    alert: await tx.alerts.insert(filled.ids.B!, { rule: 'monitor-blind', eventSessionId: null, eventName: null, state: 'firing', severity: 'critical', summary: 'blind', value: 0, streak: 0 }, now),
    window: await tx.maintenance.add({ name: 'After the copy', startsAt: now, endsAt: now + 3_600_000, repeat: 'none', timeZone: 'UTC', connectionId: null, contentId: null, eventSessionId: null }, 'alice', now),
    audit: await tx.team.audit.record({ actor: 'alice', action: 'test', subject: null, detail: null }, now).then(async () => (await tx.team.audit.list({ limit: 1 }))[0]!.id)
  }))
  expect(added).toEqual({ alert: before.alert + 1, window: before.window + 1, audit: before.audit + 1 })
})

it('names the secrets that stay in the keychain when no key file is given', async () => {
  const other = await freshDatabase()
  try {
    const withoutKey = await runCli(['store', 'copy', '--from', filled.dbFile, '--to', other.url], { EVENTWATCH_SECRET_KEY_FILE: '' })
    expect(withoutKey.code, withoutKey.stderr).toBe(0)
    expect(withoutKey.stdout).toContain(
      'These secrets stayed in this machine\'s keychain: the client secret of connection "A"; the client secret of connection "B"; ' +
        'the signing secret of webhook "On call"; the URL query of webhook "Team chat". A postgres:// database keeps secrets only sealed ' +
        'under EVENTWATCH_SECRET_KEY_FILE (docs/secrets.md): set it and copy again into an empty database, or enter each again on the new database with it set.'
    )
    expect((await countsIn(other.url, ['encrypted_secrets'])).encrypted_secrets).toBe(0)
  } finally {
    await other.drop()
  }
}, 30_000)

it('serves the copy: each connection works on it with its sealed secret alone, no keychain reachable', async () => {
  const noKeychain = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/eventwatch-test-bus', EVENTWATCH_SECRET_KEY_FILE: keyFile }
  for (const name of ['A', 'B']) {
    const tested = await runCli(['connections', 'test', name, '--db', target.url], noKeychain)
    expect(tested.stderr, name).not.toMatch(/eventwatch:/)
    expect(tested.code, name).toBe(0)
    expect(tested.stdout, name).toMatch(/^ok +secret: a client secret is available/m)
    expect(tested.stdout, name).toMatch(/^ok +token: /m)
    expect(tested.stdout, name).not.toMatch(/^FAIL/m)
  }
}, 60_000)

// Last: it polls into the copy.
it('serves the copy: a sync on it polls each tenant with its sealed secret alone', async () => {
  for (const name of ['A', 'B']) {
    const synced = await runCli(['sync', '--once', '--connection', name, '--db', target.url], {
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/eventwatch-test-bus',
      EVENTWATCH_SECRET_KEY_FILE: keyFile
    })
    expect(synced.stderr, name).not.toMatch(/eventwatch:|cannot be decrypted/)
    expect(synced.code, name).toBe(0)
    // The pass summary goes to stderr, with the progress; stdout is for what a script reads.
    expect(synced.stderr, name).toMatch(new RegExp(` ${name}: \\d+ sessions, \\d+ live`))
  }
}, 60_000)
