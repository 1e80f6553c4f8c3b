// A saved setting, a team user's own display and a maintenance window added or removed are each
// one unit of work with their audit row (docs/units-of-work.md): when the row cannot be written,
// nothing of the change is kept; once it can, both are. The fault is a real SQLite refusal (a
// trigger that aborts the audit insert, as a full disk would) made through the test's own
// connection to the cache file the app core runs on.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import type { RequestContext } from '../../src/shared/contract'
import type { MaintenanceWindow } from '../../src/shared/maintenance'
import type { AppSettings } from '../../src/shared/settings'
import { Cleanups, Pushes, startCore, value } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'
import { addUser } from '../support/team-server'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())
const tempDir = tempDirs('eventwatch-settings-units-')

const refuseAudit = (db: Db): void => {
  db.exec(`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`)
}
const allowAudit = (db: Db): void => {
  db.exec('DROP TRIGGER refuse_audit')
}
const auditRows = (db: Db): { actor: string; action: string; subject: string | null }[] =>
  db.prepare('SELECT actor, action, subject FROM audit_log ORDER BY id').all() as { actor: string; action: string; subject: string | null }[]

/** A core polling nothing on a fresh cache, and the test's own connection to that cache. */
async function coreAndCache(): Promise<{ core: AppCore; db: Db; dbFile: string }> {
  const dir = tempDir()
  const dbFile = join(dir, 'cache.db')
  const core = await startCore(cleanups, { db: dbFile, sources: async () => [], teamFile: join(dir, 'team.json') })
  const db = openDatabase(dbFile)
  cleanups.add(() => db.close())
  return { core, db, dbFile }
}

describe('a settings change and its audit row', () => {
  it('are not kept, or pushed, when the row cannot be written; once it can, both are', async () => {
    const { core, db } = await coreAndCache()
    const pushes = new Pushes(core)
    const before = await value<AppSettings>(core, 'getSettings')
    refuseAudit(db)

    const refused = await core.dispatch('saveSettings', { retention: { snapshotsDays: 30 }, display: { timeZone: 'utc' } })
    expect(!refused.ok && refused.error.message).toBe('Saving the cache and display settings failed: database or disk is full')
    expect(await value<AppSettings>(core, 'getSettings'), 'the settings were saved without their audit row').toEqual(before)
    expect(pushes.of('settingsChanged')).toEqual([])
    expect(auditRows(db)).toEqual([])

    allowAudit(db)
    const saved = await value<AppSettings>(core, 'saveSettings', { retention: { snapshotsDays: 30 }, display: { timeZone: 'utc' } })
    expect(saved).toMatchObject({ retention: { snapshotsDays: 30 }, display: { timeZone: 'utc' } })
    expect(auditRows(db)).toEqual([{ actor: expect.any(String), action: 'saveSettings', subject: null }])
    expect(pushes.of('settingsChanged').at(-1)).toEqual(saved)
  }, 30_000)

  it("for a team user's own display: not kept when the row cannot be written", async () => {
    const { core, db, dbFile } = await coreAndCache()
    await addUser(dbFile, 'alice', 'operator')
    const alice: RequestContext = { actor: { name: 'alice', role: 'operator' }, team: true }
    const read = async () => (await core.dispatch('getSettings', {}, alice)) as { ok: true; value: AppSettings }
    const before = (await read()).value.display
    refuseAudit(db)

    const refused = await core.dispatch('saveSettings', { display: { theme: 'light' } }, alice)
    expect(refused).toMatchObject({ ok: false })
    expect((await read()).value.display, "alice's display was saved without its audit row").toEqual(before)

    allowAudit(db)
    expect(await core.dispatch('saveSettings', { display: { theme: 'light' } }, alice)).toMatchObject({ ok: true, value: { display: { theme: 'light' } } })
    expect(auditRows(db)).toEqual([{ actor: 'alice', action: 'saveSettings', subject: null }])
  }, 30_000)
})

describe('a maintenance window and its audit row', () => {
  it('are not added, or removed, without each other', async () => {
    const { core, db } = await coreAndCache()
    const now = Date.now()
    const window = { name: 'Patch night', startsAt: new Date(now + 3_600_000).toISOString(), endsAt: new Date(now + 7_200_000).toISOString(), timeZone: 'UTC' }
    refuseAudit(db)

    const refused = await core.dispatch('addMaintenance', { window, confirmBroad: true })
    expect(!refused.ok && refused.error.message).toBe('Adding a maintenance window failed: database or disk is full')
    expect(await value<MaintenanceWindow[]>(core, 'listMaintenance'), 'the window was added without its audit row').toEqual([])

    allowAudit(db)
    const added = await value<MaintenanceWindow>(core, 'addMaintenance', { window, confirmBroad: true })
    refuseAudit(db)
    const notRemoved = await core.dispatch('deleteMaintenance', { id: added.id })
    expect(notRemoved).toMatchObject({ ok: false })
    expect((await value<MaintenanceWindow[]>(core, 'listMaintenance')).map((w) => w.id), 'the window was removed without its audit row').toEqual([added.id])

    allowAudit(db)
    expect(await value(core, 'deleteMaintenance', { id: added.id })).toEqual({ deleted: true })
    expect(await value<MaintenanceWindow[]>(core, 'listMaintenance')).toEqual([])
    expect(auditRows(db).map((r) => [r.action, r.subject])).toEqual([
      ['addMaintenance', null],
      ['deleteMaintenance', `maintenance window ${added.id}`]
    ])
  }, 30_000)
})
