// alerts.svelte.ts: the situation and the alerts view's page, read once and patched by
// alertsChanged pushes (stale ones ignored), and the page an operator's action answers.
import { describe, expect, it } from 'vitest'
import type { Alert, AlertsChanged, AlertSituation } from '../../../src/shared/alerts'
import { AlertsStore } from '../../../src/renderer/src/lib/stores/alerts.svelte'
import { ok } from '../../../src/shared/result'
import { alertOf as alert, situationOf } from '../../support/alert-fixtures'
import { PushingClient } from './pushing-client'

const NOW = Date.parse('2026-03-01T12:00:00Z')
const firing = (revision: number, n: number) =>
  situationOf({ revision, firing: n, worst: 'warning', tone: 'warning', tray: 'warning', headline: `${n} alerts firing` })
const push = (revision: number, changed: Alert[], removed: number[] = [], over: Partial<AlertSituation> = {}): AlertsChanged => ({
  situation: { ...firing(revision, changed.length), ...over }, changed, removed, fired: [], resolved: [], repeated: [], silenced: []
})
const ids = (store: AlertsStore) => store.page?.map((a) => [a.id, a.state])

function setUp(alerts: Alert[], revision = 3) {
  const client = new PushingClient().succeed('listAlerts', { alerts, situation: firing(revision, alerts.length) })
  const store = new AlertsStore(() => NOW)
  store.connect(client, () => {})
  return { client, store }
}

describe('AlertsStore: the situation and the page, then pushes', () => {
  it('has the situation a page opened mid-incident gets, at once', async () => {
    const { store } = setUp([alert(1), alert(2)])
    await Promise.resolve()
    await Promise.resolve()
    expect(store.situation).toMatchObject({ revision: 3, firing: 2, tone: 'warning' })
  })

  it('patches the page from pushes without asking again: changed alerts by id, removed ones gone', async () => {
    const { client, store } = setUp([alert(1), alert(2), alert(3, { state: 'pending' })])
    await store.load()
    client.push('alertsChanged', push(4, [alert(2, { state: 'acknowledged' }), alert(4)], [3], { acknowledged: 1 }))
    expect(ids(store)).toEqual([
      [1, 'firing'],
      [2, 'acknowledged'],
      [4, 'firing']
    ])
    expect(store.situation).toMatchObject({ revision: 4, acknowledged: 1 })
    expect(client.argsOf('listAlerts')).toHaveLength(2) // on connect, and the load above
  })

  it('ignores a push no newer than the situation it holds', async () => {
    const { client, store } = setUp([alert(1)], 7)
    await store.load()
    client.push('alertsChanged', push(7, [alert(1, { state: 'resolved' })]))
    client.push('alertsChanged', push(5, [], [1], { tone: 'ok' }))
    expect(ids(store)).toEqual([[1, 'firing']])
    expect(store.situation?.revision).toBe(7)
  })

  it('takes the situation of a restarted core whole, though it counts from lower (a new epoch), and reads the page again', async () => {
    const { client, store } = setUp([alert(1), alert(2)], 900)
    await store.load()
    client.succeed('listAlerts', { alerts: [alert(7)], situation: { ...firing(2, 1), epoch: 'e2' } })
    client.push('alertsChanged', push(1, [alert(7)], [], { epoch: 'e2' }))
    expect(store.situation).toMatchObject({ revision: 1, epoch: 'e2', firing: 1 })
    await Promise.resolve()
    await Promise.resolve()
    expect(ids(store)).toEqual([[7, 'firing']])
    expect(client.argsOf('listAlerts')).toHaveLength(3)
    // Within the new epoch, revisions compare again: an older word changes nothing.
    client.push('alertsChanged', push(1, [], [7], { epoch: 'e2', tone: 'ok' }))
    expect(store.situation).toMatchObject({ revision: 2, epoch: 'e2' })
    expect(ids(store)).toEqual([[7, 'firing']])
  })

  it('applies over a page the pushes that came while it was read', async () => {
    const client = new PushingClient()
    const held = client.hold('listAlerts')
    const store = new AlertsStore(() => NOW)
    store.connect(client, () => {})
    client.push('alertsChanged', push(4, [alert(2)]))
    held[0]!.settle(ok({ alerts: [alert(1)], situation: firing(3, 1) }))
    await Promise.resolve()
    await Promise.resolve()
    expect(ids(store)).toEqual([
      [1, 'firing'],
      [2, 'firing']
    ])
    expect(store.situation?.revision).toBe(4)
  })

  it("takes the page an operator's action answers", async () => {
    const { client, store } = setUp([alert(1)])
    await store.load()
    client.succeed('acknowledgeAlert', { alerts: [alert(1, { state: 'acknowledged' })], situation: firing(4, 1) })
    expect(await store.acknowledge(1, '  ticket 42 ')).toBe(true)
    expect(client.argsOf('acknowledgeAlert')).toEqual([{ id: 1, note: 'ticket 42' }])
    expect(ids(store)).toEqual([[1, 'acknowledged']])
    expect(store.busy).toBeNull()
  })

  it('lets resolved alerts older than a day leave the page', async () => {
    const { client, store } = setUp([alert(1)])
    await store.load()
    client.push('alertsChanged', push(4, [alert(2, { state: 'resolved', resolvedAt: '2026-02-27T00:00:00Z' })]))
    expect(ids(store)).toEqual([[1, 'firing']])
  })
})
