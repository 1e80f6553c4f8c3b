// connections.svelte.ts: saved connections, their test reports, and date-range fetches.
import { describe, expect, it } from 'vitest'
import type { ConnectionInput, ConnectionTestReport, ConnectionView } from '../../../src/shared/connections'
import { ConnectionsStore } from '../../../src/renderer/src/lib/stores/connections.svelte'
import { localDayRange } from '../../../src/shared/day-range'
import { ok } from '../../../src/shared/result'
import { FakeClient } from './fake-client'

const view = (id: string, enabled = true) => ({ id, name: `Connection ${id}`, enabled, secretStored: true }) as ConnectionView
const passed: ConnectionTestReport = { ok: true, steps: [{ step: 'token', ok: true, message: 'Signed in.' }] }
const ids = (connections: ConnectionsStore) => connections.list.map((c) => c.id)

/** A client whose listConnections answers `list`, the list after any change the test makes. */
function clientWith(list: ConnectionView[]) {
  return new FakeClient().answer('listConnections', () => ok(list))
}

describe('ConnectionsStore.load', () => {
  it('keeps the list', async () => {
    const connections = new ConnectionsStore()
    await connections.load(clientWith([view('c1'), view('c2')]))
    expect(ids(connections)).toEqual(['c1', 'c2'])
    expect(connections.error).toBeNull()
  })

  it('keeps the old list and the error after a failed request, and clears the error on the next success', async () => {
    const connections = new ConnectionsStore()
    const client = clientWith([view('c1')])
    await connections.load(client)
    client.refuse('listConnections', 'The cache could not be read.')
    await connections.load(client)
    expect(ids(connections)).toEqual(['c1'])
    expect(connections.error).toBe('The cache could not be read.')
    client.succeed('listConnections', [])
    await connections.load(client)
    expect(connections).toMatchObject({ list: [], error: null })
  })
})

describe('ConnectionsStore.test', () => {
  it("shows 'testing' while the test runs, then its report, leaving other reports alone", async () => {
    const client = new FakeClient().succeed('testConnection', passed)
    const connections = new ConnectionsStore()
    await connections.test(client, 'c2')
    const held = client.hold('testConnection')
    const running = connections.test(client, 'c1')
    expect(connections.reports).toEqual({ c1: 'testing', c2: passed })
    held[0]!.settle(ok({ ok: false, steps: [{ step: 'secret', ok: false, message: 'No secret stored.' }] }))
    await running
    expect(connections.reports.c1).toEqual({ ok: false, steps: [{ step: 'secret', ok: false, message: 'No secret stored.' }] })
    expect(connections.reports.c2).toEqual(passed)
  })

  it('turns a failed request into a failed report that says why', async () => {
    const connections = new ConnectionsStore()
    await connections.test(new FakeClient().refuse('testConnection', 'The service did not answer.'), 'c1')
    expect(connections.reports.c1).toEqual({ ok: false, steps: [{ step: 'token', ok: false, message: 'The service did not answer.' }] })
  })
})

describe('ConnectionsStore changes', () => {
  it('setEnabled asks for the change and reloads the list', async () => {
    const list = [view('c1')]
    const client = clientWith(list).answer('setConnectionEnabled', ({ id, enabled }) => {
      list[0] = view(id, enabled)
      return ok(list[0])
    })
    const connections = new ConnectionsStore()
    await connections.setEnabled(client, 'c1', false)
    expect(client.argsOf('setConnectionEnabled')).toEqual([{ id: 'c1', enabled: false }])
    expect(connections.list[0]?.enabled).toBe(false)
  })

  // The reload after a refused change (which succeeds) must not clear why the switch did not take.
  it('setEnabled keeps the error of a refused change after the reload', async () => {
    const client = clientWith([view('c1')]).refuse('setConnectionEnabled', 'The connection is being tested.')
    const connections = new ConnectionsStore()
    await connections.setEnabled(client, 'c1', false)
    expect(connections.error).toBe('The connection is being tested.')
  })

  it('save creates without an id, updates with one, sends a secret only when given, and reloads', async () => {
    const list: ConnectionView[] = []
    const client = clientWith(list).answer('saveConnection', ({ id }) => {
      list.push(view(id ?? 'new'))
      return ok(list.at(-1)!)
    })
    const settings = { name: 'North' } as ConnectionInput
    const connections = new ConnectionsStore()
    expect(await connections.save(client, undefined, settings, 'the-secret')).toBeNull()
    expect(await connections.save(client, 'c1', settings, '')).toBeNull()
    expect(client.argsOf('saveConnection')).toEqual([
      { settings, secret: 'the-secret' },
      { id: 'c1', settings }
    ])
    expect(ids(connections)).toEqual(['new', 'c1'])
  })

  it('save returns why it failed, and still reloads', async () => {
    const client = clientWith([view('c1')]).refuse('saveConnection', 'The base URL is not a URL.')
    const connections = new ConnectionsStore()
    expect(await connections.save(client, 'c1', { name: 'North' } as ConnectionInput, undefined)).toBe('The base URL is not a URL.')
    expect(ids(connections)).toEqual(['c1'])
  })

  it("remove reloads the list and forgets the connection's report", async () => {
    const list = [view('c1'), view('c2')]
    const client = clientWith(list)
      .succeed('testConnection', passed)
      .answer('deleteConnection', ({ id }) => {
        list.splice(list.findIndex((c) => c.id === id), 1)
        return ok({ deleted: true })
      })
    const connections = new ConnectionsStore()
    await connections.test(client, 'c1')
    await connections.test(client, 'c2')
    await connections.remove(client, 'c1')
    expect(ids(connections)).toEqual(['c2'])
    expect(Object.keys(connections.reports)).toEqual(['c2'])
    expect(connections.error).toBeNull()
  })

  it('remove keeps the error of a refused delete after the reload', async () => {
    const client = clientWith([view('c1')]).refuse('deleteConnection', 'The connection is in use.')
    const connections = new ConnectionsStore()
    await connections.remove(client, 'c1')
    expect(connections.error).toBe('The connection is in use.')
    expect(ids(connections)).toEqual(['c1'])
  })
})

describe('ConnectionsStore.fetchRange', () => {
  it('refuses a reversed range without asking the core', async () => {
    const client = new FakeClient()
    const connections = new ConnectionsStore()
    await connections.fetchRange(client, 'c1', '2026-11-21', '2026-11-14')
    expect(connections.fetchMessage).toBe('Choose a start day on or before the end day.')
    expect(client.calls).toEqual([])
  })

  it('fetches whole local days and says how many sessions came, singular or plural', async () => {
    let listed = 1
    const client = new FakeClient().answer('fetchRange', () => ok({ listed }))
    const connections = new ConnectionsStore()
    await connections.fetchRange(client, 'c1', '2026-11-14', '2026-11-21')
    expect(client.argsOf('fetchRange')).toEqual([{ connectionId: 'c1', ...localDayRange('2026-11-14', '2026-11-21') }])
    expect(connections.fetchMessage).toBe('Fetched 1 session into the cache.')
    listed = 12
    await connections.fetchRange(client, 'c1', '2026-11-14', '2026-11-14')
    expect(connections.fetchMessage).toBe('Fetched 12 sessions into the cache.')
  })

  it('is fetching while the request runs, with no old message, and says why a fetch failed', async () => {
    const client = new FakeClient()
    const held = client.hold('fetchRange')
    const connections = new ConnectionsStore()
    connections.fetchMessage = 'Fetched 3 sessions into the cache.'
    const running = connections.fetchRange(client, 'c1', '2026-11-14', '2026-11-14')
    expect(connections).toMatchObject({ fetching: true, fetchMessage: null })
    held[0]!.settle({ ok: false, error: { code: 'rate-limited', message: 'The service asked us to wait.' } })
    await running
    expect(connections).toMatchObject({ fetching: false, fetchMessage: 'Could not fetch: The service asked us to wait.' })
  })
})

describe('ConnectionsStore.testDraft', () => {
  const settings = { name: 'Draft', baseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com', platformId: 'p', tenantId: 't', clientId: 'c' } as ConnectionInput

  it('sends what is typed, the secret only when one was typed, and answers the report', async () => {
    const client = new FakeClient().succeed('testConnectionDraft', passed)
    const connections = new ConnectionsStore()
    expect(await connections.testDraft(client, undefined, settings, 'typed')).toEqual(passed)
    expect(await connections.testDraft(client, 'c1', settings, undefined)).toEqual(passed)
    expect(client.argsOf('testConnectionDraft')).toEqual([{ settings, secret: 'typed' }, { id: 'c1', settings }])
    // Nothing of it is kept in the store: no report under any id, no list change.
    expect(connections.reports).toEqual({})
  })

  it('turns a refused request into a failed report that says why', async () => {
    const connections = new ConnectionsStore()
    const client = new FakeClient().refuse('testConnectionDraft', 'Testing a connection before it is saved is for the server’s administrator.')
    expect(await connections.testDraft(client, undefined, settings, 'typed')).toEqual({
      ok: false,
      steps: [{ step: 'token', ok: false, message: 'Testing a connection before it is saved is for the server’s administrator.' }]
    })
  })
})
