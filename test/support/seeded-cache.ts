// A cache file with connection "A" and live sessions of that connection, for tests of the store.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EventSessionRecord } from '../../src/main/core/api/schemas'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { storeSessionList } from '../../src/main/core/store/sessions'

/** A live session record of connection A, started at `at`. */
export const liveSession = (id: string, at: number): EventSessionRecord => ({
  eventSessionId: id, platformId: 'p', tenantId: 't', contentId: 'c', eventName: id,
  startedAt: new Date(at).toISOString(), updatedAt: new Date(at).toISOString(), hasEnded: false,
  viewersCount: 2, reliabilityScore: 90, cdnTraffic: 1, ecdnTraffic: 1
})

/** A fresh cache holding connection A and these sessions; `cleanups` closes and removes it. */
export function seededCache(cleanups: (() => Promise<void> | void)[], sessionIds: string[], at: number): { db: Db; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-store-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'cache.db')
  const db = openDatabase(file)
  cleanups.push(() => {
    db.close()
  })
  upsertConnection(db, { id: 'A', name: 'A', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
  storeSessionList(db, 'A', sessionIds.map((id) => liveSession(id, at)), at)
  return { db, file }
}
