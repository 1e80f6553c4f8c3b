// Migration 17 on a real file: maintenance windows made before time zones get the zone of the
// machine that migrates the cache (the zone the CLI read their times in), and their repeats then
// keep their time of day there across daylight saving.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { inForce } from '../../src/main/core/alerts/maintenance'
import { windowsInForce } from '../../src/main/core/alerts/maintenance-in-force'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { migrate } from '../../src/main/core/store/migrate'
import { migrations } from '../../src/main/core/store/migrations'
import { listMaintenance } from '../../src/main/core/store/maintenance'
import { storeOn } from '../support/store-on'

let dir: string
let db: Db | undefined
const zone = process.env.TZ
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-maintenance-migration-'))
})
afterEach(() => {
  db?.close()
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
  rmSync(dir, { recursive: true, force: true })
})

/** A cache as version 16 left it, with a weekly "Saturday 22:00 Berlin" window made in March and a one-off. */
function versionSixteen(): string {
  const file = join(dir, 'v16.db')
  const raw = new Database(file)
  raw.pragma('foreign_keys = ON')
  expect(migrate(raw, migrations.filter((m) => m.version <= 16))).toBe(16)
  const insert = raw.prepare('INSERT INTO maintenance_windows (name, starts_at, ends_at, repeat, created_at) VALUES (?, ?, ?, ?, 0)')
  insert.run('Saturday night', Date.parse('2026-03-21T21:00:00Z'), Date.parse('2026-03-21T22:00:00Z'), 'weekly')
  insert.run('Once', Date.parse('2026-05-01T08:00:00Z'), Date.parse('2026-05-01T09:00:00Z'), 'none')
  raw.close()
  return file
}

describe('migration 17: maintenance windows keep a time zone', () => {
  it("gives windows made before it this machine's zone, in which a weekly window keeps 22:00 across the change", async () => {
    const file = versionSixteen()
    process.env.TZ = 'Europe/Berlin' // the machine that migrates the cache
    db = openDatabase(file)
    const windows = listMaintenance(db)
    expect(windows.map((w) => [w.name, w.timeZone])).toEqual([
      ['Saturday night', 'Europe/Berlin'],
      ['Once', 'Europe/Berlin']
    ])
    const saturday = windows[0]!
    const afterChange = Date.parse('2026-04-04T22:30:00+02:00')
    expect(inForce(saturday, afterChange)).toBe(true)
    expect(inForce(saturday, Date.parse('2026-04-04T23:30:00+02:00'))).toBe(false)
    // The phase the migration wrote finds it through the index.
    const windowsOf = storeOn(db).read.maintenance
    expect((await windowsInForce(windowsOf, afterChange)).map((w) => w.name)).toEqual(['Saturday night'])
    expect((await windowsInForce(windowsOf, Date.parse('2026-05-01T08:30:00Z'))).map((w) => w.name)).toEqual(['Once'])
  })

  it('uses UTC when the machine names no zone', () => {
    const file = versionSixteen()
    process.env.TZ = '' // Intl's "Etc/Unknown"
    db = openDatabase(file)
    expect(listMaintenance(db).map((w) => w.timeZone)).toEqual(['UTC', 'UTC'])
  })
})
