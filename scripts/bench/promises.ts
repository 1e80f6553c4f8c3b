// Part 8: what the async Store's promises cost (docs/store.md), against today's synchronous store
// calls, in the same run on the same data:
//   - the poll path: one poll of 20 live sessions (their list page, then each one's record and
//     snapshot), as today (21 transactions, one per call) and as one unit of work; and as the
//     converted poller stores it (sync/fetched.ts: the list in one unit, the round in another);
//   - a viewer page (100 viewers of a 5,000-viewer list, sorted by reliability, offsets cycling),
//     read alone and as the screen answers it (each row judged, its site named): before, on the Db
//     (the handler as it was); after, screenHandlers through the Store (loadVerdicts, store.read).
// Each on its own fresh file cache; rounds alternate sync and Store: medians of the per-call
// wall-clock times, and the process's CPU per call (which other work on the cores moves less).
// The figures are references (no goal): they say what converting a caller costs.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EventSessionRecord } from '../../src/main/core/api/schemas'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { screenHandlers } from '../../src/main/core/app/screen-handlers'
import { Verdicts } from '../../src/main/core/app/verdicts'
import { storedOverrides } from '../../src/main/core/store/alert-overrides'
import { connectionScales } from '../../src/main/core/store/reliability-scales'
import { getThresholds } from '../../src/main/core/store/settings'
import { viewerPage } from '../../src/main/core/store/queries'
import { siteNameBook } from '../../src/main/core/store/site-names'
import { localContext } from '../../src/main/core/team/local-actor'
import { storeSessionList, storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { storeDetails, storeListPages } from '../../src/main/core/sync/fetched'
import { PendingDiagnostics } from '../../src/main/core/sync/pending-diagnostics'
import { int, log, median, type Figure } from './stats'
import { parsedLists, STORE_DEFAULTS } from './store'

const CONNECTION = 'bench'
const POLLS = 200
const PAGES = 400
const ROUNDS = 5
const WARM_UP = 20

const us = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`

interface Fixture {
  records: EventSessionRecord[]
  listSession: string
}

/** A cache with the connection, the sessions and one stored viewer list; its Db and its Store. */
function freshCache(dir: string, name: string, fixture: Fixture, viewers: Parameters<typeof storeViewerList>[3]): { db: Db; store: SqliteStore } {
  const file = join(dir, name)
  const db = openDatabase(file)
  upsertConnection(db, { id: CONNECTION, name: 'bench', baseUrl: 'http://x', authUrl: 'http://x', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
  storeSessionList(db, CONNECTION, fixture.records, 0)
  storeViewerList(db, CONNECTION, fixture.listSession, viewers, 0, 10)
  return { db, store: openSqliteStore(file) }
}

/** Poll `n`'s records: each session updated, as a real poll finds them. */
const poll = (records: EventSessionRecord[], n: number): { at: number; records: EventSessionRecord[] } => {
  const at = 1_000_000 + n * 15_000
  return { at, records: records.map((r) => ({ ...r, updatedAt: new Date(at).toISOString(), viewersCount: r.viewersCount + (n % 7) })) }
}

type Timed = (n: number) => void | Promise<void>

/** Per-call wall-clock times (ms) of a series of calls, and the CPU (ms) they took in all. */
interface Series {
  wall: number[]
  cpu: number
}

const newSeries = (): Series => ({ wall: [], cpu: 0 })
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Adds `calls` runs of `call`, after a warm-up, to `series`. */
async function time(series: Series, call: Timed, calls: number, offset: number): Promise<void> {
  for (let i = 0; i < WARM_UP; i++) await call(offset + i)
  const cpuBefore = cpuMs()
  for (let i = 0; i < calls; i++) {
    const started = performance.now()
    await call(offset + WARM_UP + i)
    series.wall.push(performance.now() - started)
  }
  series.cpu += cpuMs() - cpuBefore
}

export async function benchPromises(): Promise<Figure[]> {
  const lists = parsedLists({ ...STORE_DEFAULTS, rounds: 1 }, 1_000_000)
  const fixture: Fixture = { records: lists.map((l) => l.record) as unknown as EventSessionRecord[], listSession: lists[0]!.id }
  const viewers = lists[0]!.viewers
  log(`promises: a poll of ${fixture.records.length} live sessions; viewer pages of 100 from a list of ${int(viewers.length)}; ${ROUNDS} rounds`)
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-bench-promises-'))
  const times = {
    syncPoll: newSeries(),
    storePoll: newSeries(),
    syncUnit: newSeries(),
    storeUnit: newSeries(),
    pollerUnits: newSeries(),
    syncPage: newSeries(),
    storePage: newSeries(),
    syncScreen: newSeries(),
    storeScreen: newSeries()
  }
  const opened: { db: Db; store: SqliteStore }[] = []
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const sync = freshCache(dir, `sync-${round}.db`, fixture, viewers)
      const async = freshCache(dir, `store-${round}.db`, fixture, viewers)
      opened.push(sync, async)
      const offset = round * (POLLS + WARM_UP)
      // Today's poll path: the list page in one transaction, then each session's record and snapshot in its own.
      const todays = (n: number): void => {
        const { at, records } = poll(fixture.records, n)
        storeSessionList(sync.db, CONNECTION, records, at)
        for (const r of records) storeSessionSnapshot(sync.db, CONNECTION, r, at)
      }
      await time(times.syncPoll, todays, POLLS, offset)
      await time(
        times.storePoll,
        async (n) => {
          const { at, records } = poll(fixture.records, n)
          await async.store.withTransaction((tx) => tx.sessions.storeList(CONNECTION, records, at))
          for (const r of records) await async.store.withTransaction((tx) => tx.sessions.storeSnapshot(CONNECTION, r, at))
        },
        POLLS,
        offset
      )
      // The same poll as one unit of work, as converted callers will write it.
      const later = offset + 10 * (POLLS + WARM_UP) * ROUNDS
      await time(times.syncUnit, (n) => sync.db.transaction(() => todays(n))(), POLLS, later)
      await time(
        times.storeUnit,
        (n) =>
          async.store.withTransaction(async (tx) => {
            const { at, records } = poll(fixture.records, n)
            await tx.sessions.storeList(CONNECTION, records, at)
            for (const r of records) await tx.sessions.storeSnapshot(CONNECTION, r, at)
          }),
        POLLS,
        later
      )
      // The poll path as the poller runs it now: what came back stored by its own helpers, two units.
      const converted = offset + 20 * (POLLS + WARM_UP) * ROUNDS
      await time(
        times.pollerUnits,
        async (n) => {
          const { at, records } = poll(fixture.records, n)
          const diagnostics = new PendingDiagnostics(async.store)
          await diagnostics.commit((tx) => storeListPages(tx, CONNECTION, [{ value: records, at }]))
          await diagnostics.commit((tx) => storeDetails(tx, CONNECTION, records.map((record) => ({ value: record, at }))))
        },
        POLLS,
        converted
      )
      const page = (n: number) => ({ sort: 'reliabilityScore' as const, descending: true, limit: 100, offset: (n * 100) % viewers.length })
      await time(times.syncPage, (n) => void viewerPage(sync.db, CONNECTION, fixture.listSession, page(n)), PAGES, 0)
      await time(times.storePage, async (n) => void (await async.store.read.viewers.page(CONNECTION, fixture.listSession, page(n))), PAGES, 0)
      // The screen's answer: before, the handler on the Db; after, the handler through the Store.
      const screenBefore = (n: number) => {
        // What the Db-bound verdicts read, synchronously (the scales, the levels, the overrides).
        const verdicts = new Verdicts({ scales: connectionScales(sync.db), thresholds: getThresholds(sync.db), overrides: new Map([[CONNECTION, storedOverrides(sync.db, CONNECTION)]]), everyConnection: false })
        const answer = viewerPage(sync.db, CONNECTION, fixture.listSession, page(n))
        const sites = siteNameBook(sync.db)
        return {
          ...answer,
          rows: answer.rows.map((row) => ({
            ...row,
            siteName: row.siteCode === null ? null : (sites.get(row.siteCode) ?? null),
            ...verdicts.judge(CONNECTION, fixture.listSession, row.reliabilityScore)
          }))
        }
      }
      const screens = screenHandlers(async.store, { polled: () => [CONNECTION], realConnectionPolled: () => true })
      await time(times.syncScreen, (n) => void screenBefore(n), PAGES, 0)
      await time(times.storeScreen, async (n) => void (await screens.viewerPage({ connectionId: CONNECTION, eventSessionId: fixture.listSession, ...page(n) }, localContext())), PAGES, 0)
      const last = (series: Series, n: number): string => us(median(series.wall.slice(-n)))
      log(
        `promises: round ${round + 1}/${ROUNDS}: poll ${last(times.syncPoll, POLLS)} sync, ${last(times.storePoll, POLLS)} Store; ` +
          `poll as one unit ${last(times.syncUnit, POLLS)} sync, ${last(times.storeUnit, POLLS)} Store; ` +
          `poll as the poller stores it ${last(times.pollerUnits, POLLS)} Store; ` +
          `viewer page ${last(times.syncPage, PAGES)} sync, ${last(times.storePage, PAGES)} Store; ` +
          `as the screen answers it ${last(times.syncScreen, PAGES)} sync, ${last(times.storeScreen, PAGES)} Store`
      )
    }
  } finally {
    for (const { db, store } of opened) {
      await store.close()
      db.close()
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const pair = (name: string, sync: Series, store: Series): Figure[] => {
    const [s, a] = [median(sync.wall), median(store.wall)]
    const [sCpu, aCpu] = [sync.cpu / sync.wall.length, store.cpu / store.wall.length]
    const figure = (figureName: string, value: string): Figure => ({ part: '8 promises', name: `${name}: ${figureName}`, value, goal: '(reference)', met: true })
    return [
      figure('sync store calls (median; CPU per call)', `${us(s)}; ${us(sCpu)}`),
      figure('async Store (median; CPU per call)', `${us(a)}; ${us(aCpu)}`),
      figure('Store / sync (wall; CPU)', `${(a / s).toFixed(2)}×; ${(aCpu / sCpu).toFixed(2)}×`)
    ]
  }
  return [
    ...pair('a poll, 21 transactions', times.syncPoll, times.storePoll),
    ...pair('a poll, one unit', times.syncUnit, times.storeUnit),
    // Against today's 21 transactions: what converting the poll path (sync/) costs, or saves.
    ...pair('the poll path, before (21 transactions) and after (2 units)', times.syncPoll, times.pollerUnits),
    ...pair('a viewer page of 100', times.syncPage, times.storePage),
    ...pair('a viewer page as the screen answers it (verdicts, site names)', times.syncScreen, times.storeScreen)
  ]
}
