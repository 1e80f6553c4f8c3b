// One writer per connection (issue 12: fetchRange bypassed the poller, wrote no sync run and pushed
// nothing). Through the real app core: a date range fetched for a polled connection, and for a
// disabled one, is recorded as a 'range' run and pushed with the stored count grown; a refreshed
// session is a 'refresh' run; a round of live details is a 'details' run — each with what it stored.
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { listSyncRuns, type SyncRun } from '../../src/main/core/store/sync-runs'
import type { LiveBoard } from '../../src/shared/domain'
import type { PastSessionsPage } from '../../src/shared/screens'
import { cleanupsAfterAll, coreWithConnections, frozenSimulator, type Pushes, value } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'

const cleanups = cleanupsAfterAll()
const tempDir = tempDirs('eventwatch-one-writer-')
const DAY = 86_400_000

let core: AppCore
let pushes: Pushes
let reader: Db
let sims: Record<string, RunningSimulator>
let ids: Record<string, string>

beforeAll(async () => {
  // Ended sessions 1, 3 and 5 days back; a look-back of one day leaves the older two to fetchRange.
  const world = { endedSessions: 3 }
  sims = { A: await frozenSimulator(cleanups, 'a', { ...world, seed: 51 }), B: await frozenSimulator(cleanups, 'b', { ...world, seed: 52 }) }
  let dbFile: string
  // Discovery once an hour, live details every 300 ms.
  ;({ core, pushes, ids, dbFile } = await coreWithConnections(
    cleanups,
    tempDir(),
    [
      { sim: sims.A!, name: 'A', extra: { lookbackDays: 1 } },
      { sim: sims.B!, name: 'B', extra: { lookbackDays: 1, enabled: false } }
    ],
    { cadences: { discoveryMs: 3_600_000, detailMs: 300, viewersMs: 3_600_000 } }
  ))
  reader = openDatabase(dbFile, { readonly: true })
  cleanups.add(() => reader.close())
}, 30_000)

const runs = (name: string): SyncRun[] => listSyncRuns(reader, ids[name]!)
const runsOf = (name: string, kind: string): SyncRun[] => runs(name).filter((r) => r.kind === kind)
const olderRange = () => ({ from: new Date(Date.now() - 6 * DAY).toISOString(), to: new Date(Date.now() - 2 * DAY).toISOString() })

/** fetchRange of `name`, with the sessionsChanged pushes made while it ran. */
async function fetchRange(name: string) {
  const mark = pushes.count('sessionsChanged')
  const storedBefore = pushes.of('sessionsChanged').at(-1)?.storedCount ?? 0
  const result = await value<{ listed: number }>(core, 'fetchRange', { connectionId: ids[name], ...olderRange() })
  return { result, storedBefore, pushed: pushes.since('sessionsChanged', mark) }
}

describe('every write through the connection\'s poller', () => {
  it('records a polled connection\'s date range as a range run, and pushes the grown cache', async () => {
    const rangesBefore = runsOf('A', 'range').length
    const { result, storedBefore, pushed } = await fetchRange('A')
    expect(result).toEqual({ listed: 2 })
    expect(runsOf('A', 'range')).toHaveLength(rangesBefore + 1)
    expect(runsOf('A', 'range')[0]).toMatchObject({ outcome: 'ok', listed: 2, error: null })
    expect(runsOf('A', 'range')[0]?.finishedAt).not.toBeNull()
    expect(pushed.map((p) => p.storedCount)).toContain(storedBefore + 2)
    const history = await value<PastSessionsPage>(core, 'pastSessions', { connectionId: ids.A, sort: 'started', limit: 100 })
    expect(history.rows.filter((r) => Date.parse(r.startedAt) < Date.now() - 2 * DAY)).toHaveLength(2)
  })

  it('records a disabled connection\'s date range as a range run of its own, and pushes it too', async () => {
    expect(runs('B')).toEqual([]) // never polled
    const { result, storedBefore, pushed } = await fetchRange('B')
    expect(result).toEqual({ listed: 2 })
    expect(runs('B').map((r) => [r.kind, r.outcome, r.listed])).toEqual([['range', 'ok', 2]])
    expect(pushed.map((p) => p.storedCount)).toContain(storedBefore + 2)
    const history = await value<PastSessionsPage>(core, 'pastSessions', { connectionId: ids.B, sort: 'started', limit: 100 })
    expect(history.total).toBe(2)
    expect(history.rows.every((r) => !r.watched)).toBe(true)
    // Fetching a range did not start polling it.
    expect((await value<LiveBoard>(core, 'listLiveSessions')).sessions.every((s) => s.connectionId === ids.A)).toBe(true)
  })

  it('records a refreshed session as a refresh run with its snapshot and viewers, and pushes its row', async () => {
    const { sessions } = await value<LiveBoard>(core, 'listLiveSessions')
    const session = sessions[0]!
    const mark = pushes.count('sessionsChanged')
    const { viewers } = await value<{ viewers: number }>(core, 'refreshSession', { connectionId: ids.A, eventSessionId: session.eventSessionId })
    expect(viewers).toBeGreaterThan(0)
    expect(runsOf('A', 'refresh')[0]).toMatchObject({ outcome: 'ok', snapshots: 1, viewerLists: 1, viewers })
    const row = pushes.since('sessionsChanged', mark).flatMap((p) => p.rows).find((r) => r.eventSessionId === session.eventSessionId)
    expect(Date.parse(row?.lastPolledAt ?? '')).toBeGreaterThan(Date.parse(session.lastPolledAt ?? ''))
    expect(await core.dispatch('refreshSession', { connectionId: ids.B, eventSessionId: session.eventSessionId })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/not being polled/) }
    })
  })

  it('records each round of live details as a details run with its snapshots', async () => {
    const mark = pushes.count('sessionsChanged')
    await pushes.next('sessionsChanged', () => true)
    await pushes.next('sessionsChanged', () => true)
    const details = runsOf('A', 'details')
    expect(details.length).toBeGreaterThanOrEqual(2)
    expect(details.find((r) => r.finishedAt !== null)).toMatchObject({ outcome: 'ok', snapshots: 3 })
    expect(pushes.since('sessionsChanged', mark).length).toBeGreaterThanOrEqual(2)
    // Every kind a run may be, and nothing else.
    expect(new Set(runs('A').map((r) => r.kind))).toEqual(new Set(['discovery', 'details', 'range', 'refresh']))
  })
})
