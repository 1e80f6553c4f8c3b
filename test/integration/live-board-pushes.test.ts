// Live board pushes through the real app core (issue 12: `sessionsChanged` used to carry counts
// only, and every face asked again). Two saved connections on frozen simulators, polled when the
// test says: every push carries the live rows that changed, each with its health and newest point,
// and the rows that left; revisions grow; a face that patches itself from the pushes holds exactly
// what listLiveSessions answers; nothing changed, nothing pushed. A session's own levels change its
// health at once, everywhere; a connection no longer polled takes its rows off Live, not out of History.
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import type { ConnectionView } from '../../src/shared/connections'
import type { LiveBoard, LiveSession, SessionsChanged } from '../../src/shared/domain'
import type { PastSessionsPage } from '../../src/shared/screens'
import { sessionKey } from '../../src/shared/schema-parts'
import type { RequestName } from '../../src/shared/contract'
import { cleanupsAfterAll, coreWithConnections, frozenSimulator, pollAll, type Pushes, settled, value } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'

const cleanups = cleanupsAfterAll()
const tempDir = tempDirs('eventwatch-live-pushes-')

let core: AppCore
let pushes: Pushes
let ids: Record<string, string>

beforeAll(async () => {
  const a = await frozenSimulator(cleanups, 'a', { seed: 21 })
  const b = await frozenSimulator(cleanups, 'b', { seed: 22, reliabilityScale: '0-1' })
  ;({ core, pushes, ids } = await coreWithConnections(cleanups, tempDir(), [
    { sim: a, name: 'A' },
    { sim: b, name: 'B' }
  ]))
}, 30_000)

const board = () => value<LiveBoard>(core, 'listLiveSessions')
const keysOf = (rows: { connectionId: string; eventSessionId: string }[]): string[] => rows.map(sessionKey).sort()
const past = (args: object) => value<PastSessionsPage>(core, 'pastSessions', { sort: 'started', includeLive: true, ...args })

/** The sessionsChanged pushes of a request that changes which connections are polled, once the
 *  connections polled after it have finished their first unit of work. */
async function pushedBy(name: RequestName, args: object): Promise<SessionsChanged[]> {
  const since = Date.now()
  const mark = pushes.count('sessionsChanged')
  await value(core, name, args)
  await settled(core, since)
  return pushes.since('sessionsChanged', mark)
}

/** What a face holds after patching itself from every push so far. */
function patched(all: SessionsChanged[]): Map<string, LiveSession> {
  const held = new Map<string, LiveSession>()
  let revision = -1
  for (const push of all) {
    if (push.revision <= revision) continue
    revision = push.revision
    for (const row of push.rows) held.set(sessionKey(row), row)
    for (const key of push.removed) held.delete(sessionKey(key))
  }
  return held
}

/** Revisions grow with every push, and the board answers the newest. */
async function expectBoardAtNewestPush(): Promise<LiveBoard> {
  const all = pushes.of('sessionsChanged')
  const revisions = all.map((p) => p.revision)
  expect(revisions).toEqual([...new Set(revisions)].sort((x, y) => x - y))
  const current = await board()
  expect(current.revision).toBe(revisions.at(-1))
  expect(new Map(current.sessions.map((s) => [sessionKey(s), s]))).toEqual(patched(all))
  return current
}

describe('sessionsChanged', () => {
  it('carries every changed live row with its health and newest point, and the board a face patches from it', async () => {
    const first = pushes.of('sessionsChanged')
    expect(first.length).toBeGreaterThan(0)
    const rows = first.flatMap((p) => p.rows)
    expect(new Set(rows.map((r) => r.connectionId))).toEqual(new Set([ids.A, ids.B]))
    for (const row of rows) {
      expect(row.health).toBe('good')
      expect(row.latestPoint).not.toBeNull()
      // A push made after one connection's pass may catch another's half way (its list stored,
      // its snapshots not yet): the newest point is never newer than the last poll.
      expect(row.latestPoint!.takenAt).toBeLessThanOrEqual(Date.parse(row.lastPolledAt ?? ''))
    }
    // Once every pass is done, each row's newest point is its record's latest poll.
    for (const row of patched(first).values()) {
      expect(row.latestPoint?.takenAt).toBe(Date.parse(row.lastPolledAt ?? ''))
      expect(row.latestPoint?.reliability).toBe(row.reliability)
    }
    const current = await expectBoardAtNewestPush()
    expect(current.sessions).toHaveLength(6)
    expect(first.at(-1)).toMatchObject({ liveCount: 6 })

    // Another poll: new points, new revisions, the same rows patched in place.
    const mark = pushes.count('sessionsChanged')
    await pollAll(core)
    const next = pushes.since('sessionsChanged', mark)
    expect(next.length).toBeGreaterThan(0)
    expect(next[0]!.revision).toBeGreaterThan(first.at(-1)!.revision)
    expect([...new Set(next.flatMap((p) => p.rows).map(sessionKey))].sort()).toEqual(keysOf(current.sessions))
    expect(next.every((p) => p.removed.length === 0)).toBe(true)
    for (const row of patched(next).values()) {
      const before = current.sessions.find((s) => sessionKey(s) === sessionKey(row))
      expect(row.latestPoint!.takenAt).toBeGreaterThan(before!.latestPoint!.takenAt)
    }
    await expectBoardAtNewestPush()
  })

  it('is not pushed when nothing changed', async () => {
    const { sessions, revision } = await board()
    const mark = pushes.count('sessionsChanged')
    // Each of these pushes the board again; no row is any different.
    await value(core, 'setSessionAlertOverride', { ...sessionKeyOf(sessions[0]!), muted: false })
    await value(core, 'saveSettings', { thresholds: { warning: 95, critical: 90 } })
    expect(pushes.since('sessionsChanged', mark)).toEqual([])
    expect((await board()).revision).toBe(revision)
    expect(pushes.of('settingsChanged').at(-1)?.thresholds).toEqual({ warning: 95, critical: 90 })
  })

  it('pushes a session\'s own levels as its health at once, on the board, the drill-down and History', async () => {
    const { sessions } = await board()
    const target = sessions.find((s) => s.connectionId === ids.B)!
    expect(target).toMatchObject({ health: 'good', levels: { source: 'settings' } })
    const key = sessionKeyOf(target)

    for (const [levels, health] of [
      [{ warning: 99.95, critical: 99.9 }, 'critical'],
      [{ warning: 99.95, critical: 50 }, 'warning']
    ] as const) {
      const mark = pushes.count('sessionsChanged')
      await value(core, 'setSessionAlertOverride', { ...key, thresholds: levels })
      const [push, ...more] = pushes.since('sessionsChanged', mark)
      expect(more).toEqual([])
      expect(push?.rows.map(sessionKey)).toEqual([sessionKey(target)])
      const expected = { health, levels: { ...levels, source: 'session' }, reliability: target.reliability }
      expect(push?.rows[0]).toMatchObject(expected)
      expect(await value(core, 'getSession', key)).toMatchObject(expected)
      const inHistory = (await past({ connectionId: ids.B })).rows.find((r) => r.eventSessionId === target.eventSessionId)
      expect(inHistory).toMatchObject({ ...expected, watched: true })
    }
    // The others keep the settings' levels.
    const others = (await board()).sessions.filter((s) => sessionKey(s) !== sessionKey(target))
    expect(others.every((s) => s.levels.source === 'settings' && s.health === 'good')).toBe(true)

    const mark = pushes.count('sessionsChanged')
    await value(core, 'setSessionAlertOverride', { ...key, thresholds: null })
    expect(pushes.since('sessionsChanged', mark).flatMap((p) => p.rows)).toEqual([
      expect.objectContaining({ ...key, health: 'good', levels: { warning: 95, critical: 90, source: 'settings' } })
    ])
    await expectBoardAtNewestPush()
  })

  it('takes a disabled connection\'s rows off Live with `removed`, keeping them in History unwatched', async () => {
    const before = await board()
    const bKeys = keysOf(before.sessions.filter((s) => s.connectionId === ids.B))
    expect(bKeys).toHaveLength(3)

    const after = await pushedBy('setConnectionEnabled', { id: ids.B, enabled: false })
    expect(keysOf(after.flatMap((p) => p.removed))).toEqual(bKeys)
    expect(after.flatMap((p) => p.rows).every((r) => r.connectionId === ids.A)).toBe(true)

    const current = await expectBoardAtNewestPush()
    expect(current.sessions.every((s) => s.connectionId === ids.A)).toBe(true)
    const history = await past({ connectionId: ids.B })
    const live = history.rows.filter((r) => !r.hasEnded)
    expect(keysOf(live)).toEqual(bKeys)
    expect(live.every((r) => r.watched === false && r.health === 'good')).toBe(true)
    expect((await past({ connectionId: ids.A })).rows.every((r) => r.watched)).toBe(true)
    const views = await value<ConnectionView[]>(core, 'listConnections')
    expect(views.map((v) => [v.name, v.enabled, v.polled])).toEqual([
      ['A', true, true],
      ['B', false, false]
    ])

    // Enabled again: its rows come back as rows of a push.
    const again = await pushedBy('setConnectionEnabled', { id: ids.B, enabled: true })
    expect(keysOf(again.flatMap((p) => p.rows).filter((r) => r.connectionId === ids.B))).toEqual(
      expect.arrayContaining(bKeys)
    )
    await expectBoardAtNewestPush()
  })

  it('takes a removed connection\'s rows off Live with `removed`; its cache goes with it', async () => {
    const bKeys = keysOf((await board()).sessions.filter((s) => s.connectionId === ids.B))
    expect(bKeys).toHaveLength(3)
    const pushed = await pushedBy('deleteConnection', { id: ids.B })
    expect(keysOf(pushed.flatMap((p) => p.removed))).toEqual(bKeys)
    expect((await past({ connectionId: ids.B })).total).toBe(0)
    const current = await expectBoardAtNewestPush()
    expect(current.sessions.map((s) => s.connectionId)).toEqual([ids.A, ids.A, ids.A])
  })
})

const sessionKeyOf = (s: { connectionId: string; eventSessionId: string }) => ({ connectionId: s.connectionId, eventSessionId: s.eventSessionId })
