// The core's state as rows: revisions with their epoch, the pause of polling, what a cooldown
// holds back, what the rules judged, where a critical stands on its repeat grid. Each is what a
// restarted core, or a second store on the same data (another process or server), reads back.
import { expect, it } from 'vitest'
import type { CoolingCondition } from '../../../src/main/core/store/interface/core-state'
import type { NewAlert } from '../../../src/main/core/store/interface/alerts'
import { eachBackend } from './backends'
import { sessionRecord, T0, withConnection } from './fixtures'

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
})
