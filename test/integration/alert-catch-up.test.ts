// Catching up on other cores' alerts pushes (fanout/alert-catch-up.ts): from the alert_changes
// rows after the last revision heard, a page at a time, one push per revision in order, with the
// alerts as they are now; a revision larger than a page whole; revisions that announced no alert
// end the catch-up as the situation alone; `until` stops before a push of this core's own. The
// rows are written as the Monitor writes them (nextRevision and recordAlertChanges in one unit),
// on a real cache file: the catch-up reads only through the Store.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { AlertCatchUp, type RelayedPush } from '../../src/main/core/fanout/alert-catch-up'
import type { AlertChangeIds } from '../../src/main/core/store/interface/core-state'
import type { Store } from '../../src/main/core/store/interface/store'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { connectionSettings, sessionRecord, T0 } from '../contract/store/fixtures'

let dir: string
let store: Store

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-catch-up-'))
  store = openSqliteStore(join(dir, 'cache.db'))
  await store.withTransaction(async (tx) => {
    await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
    await tx.sessions.storeList('A', [sessionRecord('s1', T0), sessionRecord('s2', T0)], T0)
    await tx.coreState.beginEpoch('alerts', 'other core')
  })
})

afterEach(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

const firing = (eventSessionId: string, rule: 'reliability-below' | 'viewers-dropping' = 'reliability-below') =>
  store.withTransaction((tx) =>
    tx.alerts.insert('A', { rule, eventSessionId, eventName: `Event ${eventSessionId}`, state: 'firing', severity: 'critical', summary: rule, value: 40, streak: 2 }, T0)
  )

/** A push of another core's: its revision, and the rows of what it announced. */
const pushed = (said: Partial<AlertChangeIds>) =>
  store.withTransaction(async (tx) => {
    const stamp = await tx.coreState.nextRevision('alerts')
    await tx.coreState.recordAlertChanges(stamp, { fired: [], resolved: [], changed: [], removed: [], repeated: [], ...said }, T0)
    return stamp.revision
  })

/** What each relayed push names, by kind, in the order pushed. */
const named = (pushes: RelayedPush[]) =>
  pushes.map(({ stamp, said }) => ({
    revision: stamp.revision,
    epoch: stamp.epoch,
    fired: said.fired.map((a) => a.id),
    changed: said.changed.map((a) => [a.id, a.state]),
    removed: said.removed,
    repeated: said.repeated.map((a) => a.id)
  }))

it('pushes each revision after the last heard, in order and a page at a time, with the alerts as they are now', async () => {
  const catchUp = new AlertCatchUp(store.read, () => T0, { pageSize: 2 })
  await catchUp.begin()
  const [x, y, z] = [await firing('s1'), await firing('s2'), await firing('s1', 'viewers-dropping')]
  const first = await pushed({ fired: [x], changed: [x] })
  // Larger than a page: read whole, alone.
  const big = await pushed({ fired: [y, z], changed: [y, z] })
  const removal = await pushed({ removed: [77] })
  await store.withTransaction((tx) => tx.alerts.acknowledge(x, null, 'alice', T0 + 1))
  const acked = await pushed({ changed: [x] })

  const pushes: RelayedPush[] = []
  await catchUp.catchUp(async (push) => void pushes.push(push))

  expect(named(pushes)).toEqual([
    { revision: first, epoch: 'other core', fired: [x], changed: [[x, 'acknowledged']], removed: [], repeated: [] },
    { revision: big, epoch: 'other core', fired: [y, z], changed: [[y, 'firing'], [z, 'firing']], removed: [], repeated: [] },
    { revision: removal, epoch: 'other core', fired: [], changed: [], removed: [77], repeated: [] },
    { revision: acked, epoch: 'other core', fired: [], changed: [[x, 'acknowledged']], removed: [], repeated: [] }
  ])
  expect(catchUp.isNews(acked)).toBe(false)
  // Nothing more: a second catch-up pushes nothing.
  await catchUp.catchUp(async (push) => void pushes.push(push))
  expect(pushes).toHaveLength(4)

  // One begun after them takes them as heard: its faces read the alerts whole.
  const late = new AlertCatchUp(store.read, () => T0, { pageSize: 2 })
  await late.begin()
  expect(late.isNews(acked)).toBe(false)
  await late.catchUp(async (push) => void pushes.push(push))
  expect(pushes).toHaveLength(4)
})

it('ends on the situation alone when the last revisions announced no alert, and stops before a push of its own', async () => {
  const catchUp = new AlertCatchUp(store.read, () => T0)
  await catchUp.begin()
  const x = await firing('s1')
  const fired = await pushed({ fired: [x], changed: [x] })
  const ownRevision = await pushed({})
  const pushes: RelayedPush[] = []
  const push = async (relayed: RelayedPush) => void pushes.push(relayed)

  // Before this core's own push (its revision `ownRevision`): the others' up to it, no more.
  await catchUp.catchUp(push, ownRevision - 1)
  catchUp.pushedHere(ownRevision)
  expect(named(pushes).map((p) => p.revision)).toEqual([fired])

  // A pause elsewhere, then another: one push of the situation, stamped with the revision now.
  await pushed({})
  const pause = await pushed({})
  await catchUp.catchUp(push)
  expect(pushes.slice(1).map(({ stamp, said }) => ({ stamp, said }))).toEqual([
    { stamp: { epoch: 'other core', revision: pause }, said: { changed: [], removed: [], fired: [], resolved: [], repeated: [], silenced: [] } }
  ])
})

it('stops where a push throws, and the next catch-up starts again from that revision', async () => {
  const catchUp = new AlertCatchUp(store.read, () => T0)
  await catchUp.begin()
  const x = await firing('s1')
  const one = await pushed({ fired: [x], changed: [x] })
  const two = await pushed({ changed: [x] })
  let refuse = true
  const pushes: number[] = []
  const push = async ({ stamp }: RelayedPush) => {
    if (stamp.revision === two && refuse) throw new Error('the hub went away')
    pushes.push(stamp.revision)
  }
  await expect(catchUp.catchUp(push)).rejects.toThrow(/hub went away/)
  refuse = false
  await catchUp.catchUp(push)
  expect(pushes).toEqual([one, two])
})
