// The judgement of a unit of work is asynchronous (its reads and its unit of work go through the
// Store), so the judgements of one connection could overlap: two would both find the same poll new
// and count it twice. The Monitor judges one connection's units in turn (docs/units-of-work.md, "On
// the Store"). A real cache file, the Monitor as the core builds it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { EventHub } from '../../src/main/core/app/event-hub'
import { Monitor } from '../../src/main/core/app/monitor'
import { listAlerts } from '../../src/main/core/store/alerts'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase } from '../../src/main/core/store/db'
import { storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { setAlertRules } from '../../src/main/core/store/settings'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { DEFAULT_ALERT_RULES, type AlertsChanged } from '../../src/shared/alerts'
import { T0 } from '../support/fake-clock'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

it("counts a poll once when its judgement is asked twice at once: the second waits for the first's commit", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-judgement-in-turn-'))
  const db = openDatabase(join(dir, 'cache.db'))
  const store = openSqliteStore(db.name, { writer: db })
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }), () => void db.close(), () => store.close())
  upsertConnection(db, { id: 'c1', name: 'Tenant', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
  // Below the warning level (95) for two polls in a row fires; one poll is pending, 1 of 2.
  setAlertRules(db, { ...DEFAULT_ALERT_RULES, reliabilityFalling: { ...DEFAULT_ALERT_RULES.reliabilityFalling, enabled: false } })
  let now = T0
  const poll = (score: number): void => {
    now += 15_000
    const record = {
      eventSessionId: 'a', platformId: 'p', tenantId: 't', contentId: 'content-a', eventName: 'Event a',
      startedAt: new Date(T0 - 3_600_000).toISOString(), updatedAt: new Date(now).toISOString(), hasEnded: false,
      viewersCount: 1000, reliabilityScore: score, cdnTraffic: 0, ecdnTraffic: 0
    }
    storeSessionSnapshot(db, 'c1', record, now)
  }
  const hub = new EventHub()
  const fired: AlertsChanged['fired'] = []
  hub.subscribe((name, payload) => {
    if (name === 'alertsChanged') fired.push(...(payload as AlertsChanged).fired)
  })
  const monitor = await Monitor.begin(store, hub, { clock: () => now, polled: () => ['c1'], unconfirmed: () => [], pollingPaused: () => false })
  poll(99)
  await monitor.afterWork('c1', now)

  // One poll below the level, judged twice at once (a unit of work and the clock, say).
  poll(93)
  await Promise.all([monitor.afterWork('c1', now), monitor.afterWork('c1', now)])
  expect(listAlerts(db, {}, now).map((a) => [a.rule, a.state])).toEqual([['reliability-below', 'pending']])
  expect(fired).toEqual([])

  // The next poll below it is the second: it fires.
  poll(93)
  await monitor.afterWork('c1', now)
  expect(fired.map((a) => [a.rule, a.state])).toEqual([['reliability-below', 'firing']])
})
