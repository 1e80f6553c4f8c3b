// A connection saved, switched off or removed is one unit of work with its audit row
// (docs/units-of-work.md): when the row cannot be written, nothing of the change is kept — not
// the connection's row, not the secret the save put in the keychain — and the answer says why.
// The fault is a real SQLite refusal (a trigger that aborts the audit insert, as a full disk
// would) made through the test's own connection to the cache file the app core runs on; the
// keychain is the real OS one, under a service name of the test's own.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import type { ConnectionView } from '../../src/shared/connections'
import { Cleanups, startCore, testKeychain, value } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())
const tempDir = tempDirs('eventwatch-connection-units-')

const FULL = 'database or disk is full'
const refuseAudit = (db: Db): void => {
  db.exec(`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, '${FULL}'); END`)
}
const allowAudit = (db: Db): void => {
  db.exec('DROP TRIGGER refuse_audit')
}
const auditActions = (db: Db): string[] =>
  (db.prepare('SELECT action FROM audit_log ORDER BY id').all() as { action: string }[]).map((r) => r.action)

const settings = (name: string) => ({
  name,
  baseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
  platformId: 'platform-1',
  tenantId: 'tenant-1',
  clientId: 'client-1'
})

/** A core polling nothing on a fresh cache, its keychain, and the test's own connection to that cache. */
async function coreAndCache(): Promise<{ core: AppCore; db: Db; secrets: SecretStore }> {
  const dir = tempDir()
  const dbFile = join(dir, 'cache.db')
  const secrets = testKeychain(cleanups)
  const core = await startCore(cleanups, { db: dbFile, secrets, sources: async () => [], teamFile: join(dir, 'team.json') })
  const db = openDatabase(dbFile)
  cleanups.add(() => db.close())
  return { core, db, secrets }
}

describe('a connection change and its audit row', () => {
  it('a save is not kept, its secret not either, when the row cannot be written; once it can, both are', async () => {
    const { core, db, secrets } = await coreAndCache()
    const first = await value<ConnectionView>(core, 'saveConnection', { settings: settings('Contoso'), secret: 'first-secret' })
    refuseAudit(db)

    const renamed = await core.dispatch('saveConnection', { id: first.id, settings: settings('Renamed'), secret: 'second-secret' })
    expect(!renamed.ok && renamed.error.message).toMatch(new RegExp(`failed: ${FULL}$`))
    const added = await core.dispatch('saveConnection', { settings: settings('Fabrikam'), secret: 'third-secret' })
    expect(!added.ok && added.error.message).toMatch(new RegExp(`failed: ${FULL}$`))
    const listed = await value<ConnectionView[]>(core, 'listConnections')
    expect(listed.map((c) => c.name), 'a connection was saved without its audit row').toEqual(['Contoso'])
    expect(await secrets.read(first.id), 'the secret of a save that was not kept stayed in the keychain').toBe('first-secret')
    expect(auditActions(db)).toEqual(['saveConnection'])

    allowAudit(db)
    await value(core, 'saveConnection', { id: first.id, settings: settings('Renamed'), secret: 'second-secret' })
    expect((await value<ConnectionView[]>(core, 'listConnections')).map((c) => c.name)).toEqual(['Renamed'])
    expect(await secrets.read(first.id)).toBe('second-secret')
    expect(auditActions(db)).toEqual(['saveConnection', 'saveConnection'])
  }, 30_000)

  it('switching off and removing are not kept without their audit row; the secret of a removal not kept stays', async () => {
    const { core, db, secrets } = await coreAndCache()
    const saved = await value<ConnectionView>(core, 'saveConnection', { settings: settings('Contoso'), secret: 'kept-secret' })
    refuseAudit(db)

    const off = await core.dispatch('setConnectionEnabled', { id: saved.id, enabled: false })
    expect(!off.ok && off.error.message).toMatch(new RegExp(`failed: ${FULL}$`))
    const removed = await core.dispatch('deleteConnection', { id: saved.id })
    expect(!removed.ok && removed.error.message).toMatch(new RegExp(`failed: ${FULL}$`))
    expect(await value<ConnectionView[]>(core, 'listConnections'), 'switched off or removed without its audit row').toEqual([
      expect.objectContaining({ id: saved.id, enabled: true, secretStored: true })
    ])
    expect(await secrets.read(saved.id)).toBe('kept-secret')

    allowAudit(db)
    expect(await value<ConnectionView>(core, 'setConnectionEnabled', { id: saved.id, enabled: false })).toMatchObject({ enabled: false })
    expect(await value(core, 'deleteConnection', { id: saved.id })).toEqual({ deleted: true })
    expect(await secrets.read(saved.id)).toBeNull()
    expect(auditActions(db)).toEqual(['saveConnection', 'setConnectionEnabled', 'deleteConnection'])
  }, 30_000)
})
