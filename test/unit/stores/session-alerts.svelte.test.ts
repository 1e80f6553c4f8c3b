// session-alerts.svelte.ts: one session's alerts for its chart marks, read once, then patched by
// the alertsChanged pushes that concern that session; older pushes and other sessions' alerts
// change nothing, and pushes heard before the first answer are applied over it; a push of a new
// epoch has the list read again.
import { describe, expect, it } from 'vitest'
import { SessionAlerts } from '../../../src/renderer/src/lib/stores/session-alerts.svelte'
import type { Alert, AlertsChanged } from '../../../src/shared/alerts'
import { ok } from '../../../src/shared/result'
import { alertOf, situationOf } from '../../support/alert-fixtures'
import { FakeClient } from './fake-client'

const KEY = { connectionId: 'c1', eventSessionId: 's1' }
const push = (revision: number, changed: Alert[], removed: number[] = []): AlertsChanged => ({
  situation: situationOf({ revision }),
  changed,
  removed,
  fired: [],
  resolved: [],
  repeated: [],
  silenced: []
})
const answering = (alerts: Alert[], revision: number) =>
  new FakeClient().answer('listAlerts', () => ok({ alerts, situation: situationOf({ revision }) }))
const ids = (store: SessionAlerts) => store.list.map((a) => `${a.id}:${a.state}`)

describe('SessionAlerts', () => {
  it("asks for this session's whole alert history once", async () => {
    const client = answering([alertOf(1)], 3)
    const store = new SessionAlerts(KEY)
    await store.load(client)
    expect(client.argsOf('listAlerts')).toEqual([{ ...KEY, historyHours: 24 * 365, limit: 1000 }])
    expect(ids(store)).toEqual(['1:firing'])
  })

  it("follows newer pushes about this session, and ignores older ones and other sessions' alerts", async () => {
    const store = new SessionAlerts(KEY)
    await store.load(answering([alertOf(1)], 3))
    store.apply(push(4, [alertOf(1, { state: 'acknowledged' }), alertOf(2, { eventSessionId: 'other' })]))
    expect(ids(store)).toEqual(['1:acknowledged'])
    store.apply(push(4, [alertOf(1, { state: 'resolved' })]))
    expect(ids(store)).toEqual(['1:acknowledged'])
    store.apply(push(5, [alertOf(3, { state: 'pending' })], [1]))
    expect(ids(store)).toEqual(['3:pending'])
  })

  it('reads the list again on a push of a restarted core (a new epoch), though it counts from lower', async () => {
    const client = answering([alertOf(1)], 800)
    const store = new SessionAlerts(KEY)
    await store.load(client)
    client.answer('listAlerts', () => ok({ alerts: [alertOf(9)], situation: situationOf({ revision: 1, epoch: 'e2' }) }))
    store.apply({ ...push(1, [alertOf(9)]), situation: situationOf({ revision: 1, epoch: 'e2' }) })
    await Promise.resolve()
    await Promise.resolve()
    expect(ids(store)).toEqual(['9:firing'])
    expect(client.argsOf('listAlerts')).toHaveLength(2)
  })

  it('applies pushes heard before the first answer over it, when they are newer', async () => {
    const client = new FakeClient()
    const held = client.hold('listAlerts')
    const store = new SessionAlerts(KEY)
    const loading = store.load(client)
    store.apply(push(2, [alertOf(1, { state: 'firing' })]))
    store.apply(push(4, [alertOf(1, { state: 'resolved', endReason: 'recovered' })]))
    held[0]?.settle(ok({ alerts: [alertOf(1, { state: 'acknowledged' })], situation: situationOf({ revision: 3 }) }))
    await loading
    expect(ids(store)).toEqual(['1:resolved'])
  })
})
