// diagnostics.svelte.ts: recent trouble with the service, as the core lists it.
import { describe, expect, it } from 'vitest'
import type { Diagnostic } from '../../../src/shared/domain'
import { DiagnosticsStore } from '../../../src/renderer/src/lib/stores/diagnostics.svelte'
import { ok } from '../../../src/shared/result'
import { FakeClient } from './fake-client'

const entry = (id: number, message: string) =>
  ({ id, connectionId: 'c1', connectionName: 'Contoso', at: '2026-11-14T09:00:00.000Z', kind: 'server', endpoint: '/sessions', message }) as Diagnostic

describe('DiagnosticsStore', () => {
  it('starts empty and not loaded', () => {
    expect(new DiagnosticsStore()).toMatchObject({ entries: [], error: null, loaded: false })
  })

  it('asks for the newest 500 and keeps them, in the order given', async () => {
    const client = new FakeClient().succeed('listDiagnostics', [entry(2, 'HTTP 503'), entry(1, 'timeout')])
    const diagnostics = new DiagnosticsStore()
    await diagnostics.load(client)
    expect(client.argsOf('listDiagnostics')).toEqual([{ limit: 500 }])
    expect(diagnostics.entries.map((e) => e.id)).toEqual([2, 1])
    expect(diagnostics).toMatchObject({ error: null, loaded: true })
  })

  it('keeps the last entries and the error after a failed request, until a load succeeds', async () => {
    const client = new FakeClient().succeed('listDiagnostics', [entry(1, 'timeout')])
    const diagnostics = new DiagnosticsStore()
    await diagnostics.load(client)
    client.refuse('listDiagnostics', 'The cache could not be read.')
    await diagnostics.load(client)
    expect(diagnostics.error).toBe('The cache could not be read.')
    expect(diagnostics.entries.map((e) => e.message)).toEqual(['timeout'])

    client.succeed('listDiagnostics', [])
    await diagnostics.load(client)
    expect(diagnostics).toMatchObject({ entries: [], error: null, loaded: true })
  })

  it("asks the core for one connection's entries, or the app's own, and drops an answer to an older filter", async () => {
    const client = new FakeClient().succeed('listDiagnostics', [entry(1, 'timeout')])
    const diagnostics = new DiagnosticsStore()
    await diagnostics.filter(client, 'c1')
    await diagnostics.filter(client, null)
    await diagnostics.filter(client, undefined)
    expect(client.argsOf('listDiagnostics')).toEqual([{ limit: 500, connectionId: 'c1' }, { limit: 500, connectionId: null }, { limit: 500 }])

    const held = client.hold('listDiagnostics')
    const older = diagnostics.filter(client, 'c1')
    const newer = diagnostics.filter(client, 'c2')
    held[1]!.settle(ok([entry(3, 'trouble at c2')]))
    await newer
    held[0]!.settle(ok([entry(2, 'trouble at c1')]))
    await older
    expect(diagnostics.connectionId).toBe('c2')
    expect(diagnostics.entries.map((e) => e.message)).toEqual(['trouble at c2'])
  })

  it('is not loaded while every request has failed', async () => {
    const diagnostics = new DiagnosticsStore()
    await diagnostics.load(new FakeClient().refuse('listDiagnostics', 'offline'))
    expect(diagnostics).toMatchObject({ loaded: false, error: 'offline' })
  })
})
