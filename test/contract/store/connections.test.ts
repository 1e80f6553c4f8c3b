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

  it('keeps the demo row or a command line\'s connection by id: created once, its target brought up to date', async () => {
    const { store } = subject()
    const target = { id: 'cli-1', name: 'Tenant @ host', baseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com', platformId: 'p', tenantId: 't', clientId: 'c' }
    await store.withTransaction((tx) => tx.connections.upsert({ ...target, isDemo: false, enabled: false }, T0))
    await store.withTransaction((tx) => tx.connections.upsert({ ...target, baseUrl: 'https://api2.example.com', isDemo: false }, T0 + 1))
    expect(await store.read.connections.list()).toEqual([
      expect.objectContaining({ id: 'cli-1', baseUrl: 'https://api2.example.com', enabled: false, isDemo: false })
    ])
    await store.withTransaction((tx) => tx.connections.upsert({ ...target, id: 'demo', name: 'Demo data', isDemo: true }, T0))
    expect((await store.read.connections.list()).map((c) => c.id)).toEqual(['cli-1'])
    expect(await store.read.connections.get('demo')).toMatchObject({ isDemo: true, enabled: true })
  })

  it('gives each connection\'s scale setting with the count and the highest of its own sessions\' scores', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      await tx.connections.insert(connectionSettings('Tenant B', { reliabilityScale: '0-100' }), 'B', T0)
      await tx.sessions.storeList('A', [sessionRecord('s1', T0, { reliabilityScore: 0.4 }), sessionRecord('s2', T0, { reliabilityScore: 0.9 })], T0)
    })
    const facts = await store.read.connections.scaleFacts()
    expect([...facts].sort((x, y) => x.id.localeCompare(y.id))).toEqual([
      { id: 'A', name: 'Tenant A', setting: 'auto', count: 2, max: 0.9 },
      { id: 'B', name: 'Tenant B', setting: '0-100', count: 0, max: null }
    ])
  })
})
