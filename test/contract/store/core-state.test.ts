// The core's state as rows: revisions with their epoch, the pause of polling, what a cooldown
// holds back, what the rules judged, where a critical stands on its repeat grid, what each alerts
// push announced. Each is what a restarted core, or a second store on the same data (another
// process or server), reads back.
import { expect, it } from 'vitest'
import type { AlertChangeIds, CoolingCondition } from '../../../src/main/core/store/interface/core-state'
import type { NewAlert } from '../../../src/main/core/store/interface/alerts'
import { eachBackend } from './backends'
import { MINUTE, sessionRecord, T0, withConnection } from './fixtures'

const held = (eventSessionId: string, over: Partial<CoolingCondition> = {}): CoolingCondition => ({
  connectionId: 'A',
  eventSessionId,
  rule: 'reliability-below',
  severity: 'critical',
  summary: 'reliability 40 below 60',
  site: null,
  ...over
})

const firing = (eventSessionId: string): NewAlert => ({
  rule: 'reliability-below',
  eventSessionId,
  eventName: `Event ${eventSessionId}`,
  state: 'firing',
  severity: 'critical',
  summary: 'reliability 40 below 60',
  value: 40,
  streak: 1
})

const announced = (over: Partial<AlertChangeIds>): AlertChangeIds => ({ fired: [], resolved: [], changed: [], removed: [], repeated: [], ...over })

eachBackend('core state', (subject) => {
  it('counts a revision once across every store on the data, and goes on from it in a new epoch', async () => {
    const { store, openOther } = subject()
    expect(await store.read.coreState.revision('alerts')).toBeNull()
    expect(await store.withTransaction((tx) => tx.coreState.beginEpoch('alerts', 'e1'))).toEqual({ epoch: 'e1', revision: 0 })
    expect(await store.withTransaction((tx) => tx.coreState.nextRevision('alerts'))).toEqual({ epoch: 'e1', revision: 1 })
    const other = await openOther()
    expect(await other.withTransaction((tx) => tx.coreState.nextRevision('alerts'))).toEqual({ epoch: 'e1', revision: 2 })
    // A restarted core: a new epoch, the count goes on (no revision is handed out twice).
    expect(await other.withTransaction((tx) => tx.coreState.beginEpoch('alerts', 'e2'))).toEqual({ epoch: 'e2', revision: 2 })
    expect(await store.withTransaction((tx) => tx.coreState.nextRevision('alerts'))).toEqual({ epoch: 'e2', revision: 3 })
    // The board counts on its own.
    expect(await store.read.coreState.revision('board')).toBeNull()
    await expect(store.withTransaction((tx) => tx.coreState.nextRevision('board'))).rejects.toThrow(/no epoch was begun for the board/)
  })

  it('keeps the pause of one connection or of all, and resuming all resumes each', async () => {
    const { store, openOther } = subject()
    expect(await store.read.coreState.pausedPolling()).toEqual({ all: false, connections: new Set() })
    await store.withTransaction((tx) => tx.coreState.setPollingPaused(true, T0, 'A'))
    const other = await openOther()
    expect(await other.read.coreState.pausedPolling()).toEqual({ all: false, connections: new Set(['A']) })
    await store.withTransaction((tx) => tx.coreState.setPollingPaused(true, T0))
    expect(await other.read.coreState.pausedPolling()).toEqual({ all: true, connections: new Set(['A']) })
    await store.withTransaction((tx) => tx.coreState.setPollingPaused(false, T0))
    expect(await other.read.coreState.pausedPolling()).toEqual({ all: false, connections: new Set() })
  })

  it("keeps each poller's last status, and its pause flag beside it", async () => {
    const { store, openOther } = subject()
    await store.withTransaction((tx) => tx.coreState.setPollingPaused(true, T0, 'A'))
    await store.withTransaction((tx) => tx.coreState.savePollerStatus('A', { state: 'paused', lastUpdateAt: T0 - 5, lastError: null, offlineSince: null }, T0))
    await store.withTransaction((tx) =>
      tx.coreState.savePollerStatus('B', { state: 'offline', lastUpdateAt: null, lastError: 'connect ECONNREFUSED', offlineSince: T0 - 9 }, T0 + 1)
    )
    const other = await openOther()
    expect(await other.read.coreState.pollerStatuses()).toEqual(
      new Map([
        ['A', { state: 'paused', lastUpdateAt: T0 - 5, lastError: null, offlineSince: null, updatedAt: T0 }],
        ['B', { state: 'offline', lastUpdateAt: null, lastError: 'connect ECONNREFUSED', offlineSince: T0 - 9, updatedAt: T0 + 1 }]
      ])
    )
    expect(await other.read.coreState.pausedPolling()).toEqual({ all: false, connections: new Set(['A']) })
  })

  it("replaces a connection's cooldowns in a unit (none of them when it rolls back) and forgets unpolled ones", async () => {
    const { store } = subject()
    await store.withTransaction((tx) => tx.coreState.replaceCooling('A', [held('s1'), held('s1', { rule: 'site-reliability', site: '12', summary: 'site 12' })]))
    await store.withTransaction((tx) => tx.coreState.replaceCooling('B', [held('s9', { connectionId: 'B' })]))
    await expect(
      store.withTransaction(async (tx) => {
        await tx.coreState.replaceCooling('A', [])
        throw new Error('the evaluation failed')
      })
    ).rejects.toThrow('the evaluation failed')
    expect(await store.read.coreState.cooling()).toEqual([held('s1'), held('s1', { rule: 'site-reliability', site: '12', summary: 'site 12' }), held('s9', { connectionId: 'B' })])
    expect(await store.withTransaction((tx) => tx.coreState.forgetCoolingExcept(['B']))).toBe(2)
    expect(await store.read.coreState.cooling()).toEqual([held('s9', { connectionId: 'B' })])
  })

  it('remembers the newest snapshot and list judged per session, and forgets sessions no longer observed', async () => {
    const { store } = subject()
    await store.withTransaction((tx) =>
      tx.coreState.saveJudged('A', ['s1', 's2'], [{ eventSessionId: 's1', snapshotAt: 5 }, { eventSessionId: 's1', listAt: 7 }, { eventSessionId: 's2', snapshotAt: 3 }])
    )
    expect(await store.read.coreState.judged('A')).toEqual(new Map([['s1', { snapshotAt: 5, listAt: 7 }], ['s2', { snapshotAt: 3, listAt: null }]]))
    await store.withTransaction((tx) => tx.coreState.saveJudged('A', ['s1'], [{ eventSessionId: 's1', snapshotAt: 9 }]))
    expect(await store.read.coreState.judged('A')).toEqual(new Map([['s1', { snapshotAt: 9, listAt: 7 }]]))
    expect(await store.read.coreState.judged('B')).toEqual(new Map())
  })

  it("keeps each alert's repeat step; an alert left out has none", async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    await store.withTransaction((tx) => tx.sessions.storeList('A', [sessionRecord('s1', T0), sessionRecord('s2', T0)], T0))
    const [one, two] = await store.withTransaction(async (tx) => [await tx.alerts.insert('A', firing('s1'), T0), await tx.alerts.insert('A', firing('s2'), T0)])
    await store.withTransaction((tx) => tx.coreState.saveRepeatSteps(new Map([[one!, 2], [two!, 0]])))
    expect(await store.read.coreState.repeatSteps()).toEqual(new Map([[one!, 2], [two!, 0]]))
    await store.withTransaction((tx) => tx.coreState.saveRepeatSteps(new Map([[two!, 1]])))
    expect(await store.read.coreState.repeatSteps()).toEqual(new Map([[two!, 1]]))
  })

  it('records what each push announced under its revision and epoch; another store reads it back in revision order', async () => {
    const { store, openOther } = subject()
    await store.withTransaction((tx) => tx.coreState.beginEpoch('alerts', 'e1'))
    // Pushes as a core makes them: the revision and what it announces in one unit.
    const push = (said: AlertChangeIds, at: number) =>
      store.withTransaction(async (tx) => {
        const stamp = await tx.coreState.nextRevision('alerts')
        await tx.coreState.recordAlertChanges(stamp, said, at)
        return stamp
      })
    await push(announced({ fired: [7], changed: [7, 3] }), T0)
    await push(announced({}), T0 + 1) // a push of the situation alone: no rows
    // A restarted core: a new epoch, the count goes on.
    await store.withTransaction((tx) => tx.coreState.beginEpoch('alerts', 'e2'))
    await push(announced({ resolved: [7], removed: [9], repeated: [3], changed: [7, 7] }), T0 + 2)
    const other = await openOther()
    const row = (epoch: string, revision: number, alertId: number, kind: string, at: number) => ({ epoch, revision, alertId, kind, at })
    expect(await other.read.coreState.alertChangesSince(0, 100)).toEqual([
      row('e1', 1, 3, 'changed', T0),
      row('e1', 1, 7, 'changed', T0),
      row('e1', 1, 7, 'fired', T0),
      row('e2', 3, 7, 'changed', T0 + 2),
      row('e2', 3, 9, 'removed', T0 + 2),
      row('e2', 3, 3, 'repeated', T0 + 2),
      row('e2', 3, 7, 'resolved', T0 + 2)
    ])
    // Since a revision: only the pushes after it, whatever epoch they are of.
    expect((await other.read.coreState.alertChangesSince(1, 100)).map((r) => [r.epoch, r.revision])).toEqual([
      ['e2', 3],
      ['e2', 3],
      ['e2', 3],
      ['e2', 3]
    ])
    expect(await other.read.coreState.alertChangesSince(3, 100)).toEqual([])
  })

  it('reads in revision order whatever order the rows were written in', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.coreState.recordAlertChanges({ epoch: 'e1', revision: 12 }, announced({ fired: [1] }), T0)
      await tx.coreState.recordAlertChanges({ epoch: 'e1', revision: 10 }, announced({ fired: [2] }), T0)
      await tx.coreState.recordAlertChanges({ epoch: 'e1', revision: 11 }, announced({ fired: [3] }), T0)
    })
    expect((await store.read.coreState.alertChangesSince(0, 100)).map((r) => [r.revision, r.alertId])).toEqual([
      [10, 2],
      [11, 3],
      [12, 1]
    ])
  })

  it('reads a page of at most `limit` rows in whole pushes; a push larger than a page comes alone and whole', async () => {
    const { store } = subject()
    const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i)
    await store.withTransaction(async (tx) => {
      await tx.coreState.recordAlertChanges({ epoch: 'e1', revision: 1 }, announced({ changed: ids(100, 2) }), T0)
      await tx.coreState.recordAlertChanges({ epoch: 'e1', revision: 2 }, announced({ changed: ids(200, 2) }), T0)
      await tx.coreState.recordAlertChanges({ epoch: 'e1', revision: 3 }, announced({ changed: ids(300, 5) }), T0)
      await tx.coreState.recordAlertChanges({ epoch: 'e1', revision: 4 }, announced({ changed: ids(400, 1) }), T0)
    })
    const revisions = async (since: number, limit: number) => (await store.read.coreState.alertChangesSince(since, limit)).map((r) => r.revision)
    expect(await revisions(0, 3)).toEqual([1, 1]) // revision 2 would not fit whole
    expect(await revisions(0, 4)).toEqual([1, 1, 2, 2])
    expect(await revisions(2, 3)).toEqual([3, 3, 3, 3, 3]) // larger than a page: alone and whole
    expect(await revisions(3, 3)).toEqual([4])
    // Reading on from each page's last revision reads every row once.
    const read: number[] = []
    for (let since = 0, page = await revisions(since, 4); page.length > 0; since = page.at(-1)!, page = await revisions(since, 4)) read.push(...page)
    expect(read).toEqual([1, 1, 2, 2, 3, 3, 3, 3, 3, 4])
  })

  it('records nothing of a unit that rolls back, nor takes its revision', async () => {
    const { store } = subject()
    await store.withTransaction((tx) => tx.coreState.beginEpoch('alerts', 'e1'))
    await expect(
      store.withTransaction(async (tx) => {
        const stamp = await tx.coreState.nextRevision('alerts')
        await tx.coreState.recordAlertChanges(stamp, announced({ fired: [1], changed: [1] }), T0)
        throw new Error('the push could not be read')
      })
    ).rejects.toThrow('the push could not be read')
    expect(await store.read.coreState.alertChangesSince(0, 100)).toEqual([])
    expect(await store.read.coreState.revision('alerts')).toEqual({ epoch: 'e1', revision: 0 })
  })

  it('prunes the changes recorded before a time, at most `limit` at a time', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.coreState.recordAlertChanges({ epoch: 'e1', revision: 1 }, announced({ fired: [1], changed: [1, 2] }), T0)
      await tx.coreState.recordAlertChanges({ epoch: 'e1', revision: 2 }, announced({ resolved: [1] }), T0 + MINUTE)
    })
    expect(await store.withTransaction((tx) => tx.coreState.pruneAlertChanges(T0 + MINUTE, 2))).toBe(2)
    expect(await store.withTransaction((tx) => tx.coreState.pruneAlertChanges(T0 + MINUTE, 2))).toBe(1)
    expect(await store.withTransaction((tx) => tx.coreState.pruneAlertChanges(T0 + MINUTE, 2))).toBe(0)
    expect(await store.read.coreState.alertChangesSince(0, 100)).toEqual([{ epoch: 'e1', revision: 2, alertId: 1, kind: 'resolved', at: T0 + MINUTE }])
  })
})
