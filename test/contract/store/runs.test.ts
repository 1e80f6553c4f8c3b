// Sync runs and diagnostics: what each pass did and what went wrong, newest first.
import { expect, it } from 'vitest'
import { eachBackend } from './backends'
import { MINUTE, T0, withConnection } from './fixtures'

eachBackend('sync runs and diagnostics', (subject) => {
  it('records a run from start to finish, and lists runs newest first', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    const first = await store.withTransaction((tx) => tx.runs.start('A', 'once', T0))
    expect(await store.read.runs.lastFinished('A')).toBeNull()
    expect(await store.withTransaction((tx) => tx.runs.finish(first, { outcome: 'ok', listed: 3, snapshots: 3 }, T0 + MINUTE))).toBe(true)
    expect(await store.withTransaction((tx) => tx.runs.finish(first + 1000, { outcome: 'failed' }, T0 + 2 * MINUTE))).toBe(false)
    const second = await store.withTransaction((tx) => tx.runs.start('A', 'details', T0 + 3 * MINUTE))
    expect((await store.read.runs.list('A')).map((r) => r.id)).toEqual([second, first])
    expect((await store.read.runs.list('A', 1)).map((r) => r.id)).toEqual([second])
    expect(await store.read.runs.lastFinished('A')).toMatchObject({ id: first, outcome: 'ok', listed: 3, snapshots: 3, finishedAt: T0 + MINUTE })
  })

  it('keeps diagnostics, newest first, of one connection or of all', async () => {
    const { store } = subject()
    await withConnection(store, 'A', 'Tenant A')
    await store.withTransaction(async (tx) => {
      await tx.runs.recordDiagnostic({ connectionId: 'A', at: T0, kind: 'network', endpoint: '/sessions', message: 'timed out' })
      await tx.runs.recordDiagnostic({ connectionId: null, at: T0 + MINUTE, kind: 'app', endpoint: 'window', message: 'page crashed' })
    })
    expect((await store.read.runs.diagnostics()).map((d) => d.message)).toEqual(['page crashed', 'timed out'])
    expect(await store.read.runs.diagnostics(10, 'A')).toEqual([expect.objectContaining({ message: 'timed out', connectionName: 'Tenant A', kind: 'network' })])
    expect(await store.read.runs.diagnostics(1)).toHaveLength(1)
  })
})
