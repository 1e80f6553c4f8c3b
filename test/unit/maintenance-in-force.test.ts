// The windows in force as the core finds them through the cache's indexes (one-off windows by
// start, repeating ones by zone and phase) are exactly those inForce says, on a real SQLite file,
// at instants all around both changes of the clocks in zones north and south, with half-hour
// daylight saving (Lord Howe) and none (Kolkata, UTC). (`npm run bench -- maintenance` shows it flat.)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inForce } from '../../src/main/core/alerts/maintenance'
import { windowsInForce } from '../../src/main/core/alerts/maintenance-in-force'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { insertMaintenance, listMaintenance } from '../../src/main/core/store/maintenance'
import { createRandom } from '../../src/main/core/simulator/random'
import { storeOn } from '../support/store-on'

const H = 3_600_000
const D = 24 * H
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC']
// Instants around the 2026 changes (Europe 29 March and 25 October, the US 8 March and 1 November,
// Sydney and Lord Howe 5 April and 4 October), where the lookup widens and checks each candidate,
// and far from any (June, December), where the index lookup alone decides.
const CENTRES = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-10-04', '2026-10-25', '2026-11-01', '2026-06-20', '2026-12-12'].map((d) => Date.parse(`${d}T00:00:00Z`))

let dir: string
let db: Db
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-maintenance-in-force-'))
  db = openDatabase(join(dir, 'cache.db'))
  const random = createRandom(23)
  const base = Date.parse('2026-02-01T00:00:00Z')
  for (let i = 0; i < 180; i++) {
    const repeat = (['none', 'daily', 'weekly'] as const)[i % 3] as 'none' | 'daily' | 'weekly'
    // Starts on the quarter hour over nine months; lengths from 15 minutes to most of the period.
    const startsAt = base + Math.floor(random.next() * 270 * 96) * 15 * 60_000
    const longest = repeat === 'daily' ? 23 * H : repeat === 'weekly' ? 6 * D : 10 * D
    const length = Math.max(15 * 60_000, Math.floor(random.next() ** 3 * longest / 60_000) * 60_000)
    insertMaintenance(
      db,
      { name: `w${i}`, startsAt, endsAt: startsAt + length, repeat, timeZone: ZONES[i % ZONES.length] as string, connectionId: null, contentId: null, eventSessionId: null },
      base,
      null
    )
  }
})
afterAll(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('windows in force, found through the indexes', () => {
  it('are exactly those inForce says, every 50 minutes for three and a half days around each change of the clocks and far from them', async () => {
    const all = listMaintenance(db)
    const windows = storeOn(db).read.maintenance
    let checked = 0
    for (const centre of CENTRES) {
      for (let now = centre - 30 * H; now <= centre + 54 * H; now += 50 * 60_000) {
        const expected = all.filter((w) => inForce(w, now)).map((w) => w.id).sort((a, b) => a - b)
        const found = (await windowsInForce(windows, now)).map((w) => w.id).sort((a, b) => a - b)
        expect(found, new Date(now).toISOString()).toEqual(expected)
        checked += expected.length
      }
    }
    expect(checked).toBeGreaterThan(300) // the table holds windows in force, not only empty answers
  })
})
