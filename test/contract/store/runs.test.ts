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

  it("finishes a connection's unfinished runs as stopped, saying why, and leaves the others alone", async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    await withConnection(store, 'B')
    const done = await store.withTransaction((tx) => tx.runs.start('A', 'details', T0))
    await store.withTransaction((tx) => tx.runs.finish(done, { outcome: 'ok', snapshots: 2 }, T0 + MINUTE))
    const open = await store.withTransaction((tx) => tx.runs.start('A', 'discovery', T0 + 2 * MINUTE))
    const other = await store.withTransaction((tx) => tx.runs.start('B', 'discovery', T0 + 2 * MINUTE))
    const why = 'the server holding connection A stopped before finishing it (taken over, fence 1 → 2)'
    expect(await store.withTransaction((tx) => tx.runs.stopUnfinished('A', why, T0 + 3 * MINUTE))).toBe(1)
    const runs = await store.read.runs.list('A')
    expect(runs.find((r) => r.id === open)).toMatchObject({ outcome: 'stopped', finishedAt: T0 + 3 * MINUTE, error: why })
    expect(runs.find((r) => r.id === done)).toMatchObject({ outcome: 'ok', finishedAt: T0 + MINUTE, error: null })
    expect((await store.read.runs.list('B')).find((r) => r.id === other)).toMatchObject({ outcome: null, finishedAt: null })
    expect(await store.withTransaction((tx) => tx.runs.stopUnfinished('A', why, T0 + 4 * MINUTE))).toBe(0)
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
