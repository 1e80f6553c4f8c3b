// Connections: the tenants the app polls, added, changed, switched off and removed.
import { expect, it } from 'vitest'
import { eachBackend } from './backends'
import { connectionSettings, sessionRecord, T0 } from './fixtures'

eachBackend('connections', (subject) => {
  it('adds connections and reads them back by id and by name', async () => {
    const { store } = subject()
    const added = await store.withTransaction((tx) => tx.connections.insert(connectionSettings('Tenant A', { lookbackDays: 3 }), 'A', T0))
    expect(added).toMatchObject({ id: 'A', name: 'Tenant A', lookbackDays: 3, enabled: true, isDemo: false, origin: null })
    expect(await store.read.connections.get('A')).toEqual(added)
    expect((await store.read.connections.findByName('Tenant A'))?.id).toBe('A')
    expect(await store.read.connections.findByName('Tenant B')).toBeNull()
  })

  it('changes and switches off a connection, and answers null for one it does not hold', async () => {
    const { store } = subject()
    await store.withTransaction((tx) => tx.connections.insert(connectionSettings('Tenant A'), 'A', T0))
    const renamed = await store.withTransaction((tx) => tx.connections.update('A', connectionSettings('Tenant Z'), T0 + 1))
    expect(renamed?.name).toBe('Tenant Z')
    expect((await store.withTransaction((tx) => tx.connections.setEnabled('A', false, T0 + 2)))?.enabled).toBe(false)
    expect(await store.withTransaction((tx) => tx.connections.update('nope', connectionSettings('X'), T0))).toBeNull()
    expect(await store.withTransaction((tx) => tx.connections.setEnabled('nope', true, T0))).toBeNull()
  })

  it('removes a connection with what it polled, once', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      await tx.sessions.storeList('A', [sessionRecord('s', T0)], T0)
    })
    expect(await store.withTransaction((tx) => tx.connections.remove('A'))).toBe(true)
    expect(await store.withTransaction((tx) => tx.connections.remove('A'))).toBe(false)
    expect(await store.read.sessions.live()).toEqual([])
    expect(await store.read.connections.list()).toEqual([])
  })

  it('decides each connection’s scale from its own setting and its own scores, never another’s', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      await tx.connections.insert(connectionSettings('Tenant B'), 'B', T0)
      await tx.connections.insert(connectionSettings('Tenant C', { reliabilityScale: '0-1' }), 'C', T0)
      await tx.sessions.storeList('A', [sessionRecord('a', T0, { reliabilityScore: 0.93 })], T0)
      await tx.sessions.storeList('B', [sessionRecord('b', T0, { reliabilityScore: 93 })], T0)
    })
    const scales = await store.read.connections.scales()
    expect(scales.get('A')).toMatchObject({ connectionName: 'Tenant A', setting: 'auto', value: '0-1', source: 'detected' })
    expect(scales.get('B')).toMatchObject({ setting: 'auto', value: '0-100', source: 'detected' })
    expect(scales.get('C')).toMatchObject({ setting: '0-1', value: '0-1', source: 'setting' })
  })
})
