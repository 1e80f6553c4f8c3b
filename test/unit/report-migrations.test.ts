// Migrations 20 and 21 on a real file (issue 24): alerts resolved before version 20 get the kind of
// end their words said; a session first seen after its end loses the "peak" its count after the
// end gave it (its viewers' peak stands), one seen live keeps its polls' peak, and a summed list
// says how many of its viewers had no usable times.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getAlert } from '../../src/main/core/store/alerts'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { migrate } from '../../src/main/core/store/migrate'
import { migrations } from '../../src/main/core/store/migrations'
import { pastSessions } from '../../src/main/core/store/queries'

let dir: string
let db: Db | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-report-migrations-'))
})
afterEach(() => {
  db?.close()
  rmSync(dir, { recursive: true, force: true })
})

const T0 = Date.parse('2026-11-20T10:00:00Z')
const MIN = 60_000

/** A cache as version 19 left it. */
function versionNineteen(): string {
  const file = join(dir, 'v19.db')
  const raw = new Database(file)
  raw.pragma('foreign_keys = ON')
  expect(migrate(raw, migrations.filter((m) => m.version <= 19))).toBe(19)
  raw.exec(`INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, created_at, updated_at)
    VALUES ('c', 'Contoso', 'https://api.example.com', 'https://auth.example.com', 'p', 't', 'client', 0, 0, 0)`)
  const session = raw.prepare(`INSERT INTO sessions (connection_id, event_session_id, platform_id, tenant_id, content_id, event_name,
      started_at, updated_at, has_ended, viewers_count, reliability_score, cdn_traffic, ecdn_traffic, raw_json, first_seen_at,
      last_polled_at, ended_observed_at, peak_viewers)
    VALUES ('c', @id, 'p', 't', 'x', @id, ${T0}, ${T0 + 60 * MIN}, 1, @count, 97, 0, 0, '{}', @firstSeen, @firstSeen, @endedSeen, @peak)`)
  // First seen ended: the service said 56 (everyone who watched), which became its "peak".
  session.run({ id: 'seen-ended', count: 56, firstSeen: T0 + 2 * 60 * MIN, endedSeen: T0 + 2 * 60 * MIN, peak: 56 })
  // Seen live at 300, then ended.
  session.run({ id: 'seen-live', count: 0, firstSeen: T0, endedSeen: T0 + 70 * MIN, peak: 300 })
  raw.exec(`INSERT INTO viewer_lists (id, connection_id, event_session_id, fetched_at, viewer_count, pages, peak_viewers, peak_at)
    VALUES (1, 'c', 'seen-ended', ${T0 + 2 * 60 * MIN}, 4, 1, 2, ${T0 + 10 * MIN})`)
  const viewer = raw.prepare(`INSERT INTO viewers (list_id, viewer_id, started_at, ended_at, raw_json) VALUES (1, ?, ?, ?, '{}')`)
  viewer.run('a', T0, T0 + 60 * MIN)
  viewer.run('b', T0 + 10 * MIN, T0 + 30 * MIN)
  viewer.run('c', null, T0 + 20 * MIN) // no start
  viewer.run('d', T0 + 50 * MIN, T0 + 5 * MIN) // an end before its start
  const alert = raw.prepare(`INSERT INTO alerts (id, rule, connection_id, event_session_id, state, severity, summary, opened_at, fired_at, resolved_at)
    VALUES (?, ?, 'c', 'seen-live', 'resolved', 'warning', 's', ${T0}, ${T0}, ${T0 + MIN})`)
  const resolved = raw.prepare(`INSERT INTO alert_transitions (alert_id, at, state, severity, value, note) VALUES (?, ${T0 + MIN}, 'resolved', 'warning', NULL, ?)`)
  const ends = ['recovered', 'session ended', 'rule turned off', 'connection disabled: no longer polled', 'the service answers again']
  ends.forEach((note, i) => {
    alert.run(i + 1, i === 4 ? 'monitor-blind' : 'reliability-falling')
    resolved.run(i + 1, note)
  })
  raw.close()
  return file
}

describe('migrations 20 and 21', () => {
  it('give old ends their kind, a session first seen ended its viewers\' peak, and a summed list its viewers without times', () => {
    db = openDatabase(versionNineteen())
    expect([1, 2, 3, 4, 5].map((id) => [getAlert(db!, id).endReason, getAlert(db!, id).endKind])).toEqual([
      ['recovered', 'recovered'],
      ['session ended', 'session-ended'],
      ['rule turned off', 'rule-off'],
      ['connection disabled: no longer polled', 'unwatched'],
      ['the service answers again', 'recovered']
    ])
    const rows = pastSessions(db, { sort: 'started' }).rows
    expect(rows.find((r) => r.eventSessionId === 'seen-ended')).toMatchObject({ peakViewers: 2, peakSource: 'viewers', peakUntimed: 2 })
    expect(rows.find((r) => r.eventSessionId === 'seen-live')).toMatchObject({ peakViewers: 300, peakSource: 'polls', peakUntimed: null })
  })
})
