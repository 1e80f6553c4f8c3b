// Settings: defaults until changed, a change merged into what is kept, an invalid one refused whole.
import { expect, it } from 'vitest'
import { eachBackend } from './backends'
import { T0 } from './fixtures'

eachBackend('settings', (subject) => {
  it('reads the defaults of a fresh store, and each change merged into the kept value', async () => {
    const { store } = subject()
    const before = await store.read.settings.get('display')
    const after = await store.withTransaction((tx) => tx.settings.update('display', { timeZone: 'utc' }))
    expect(after).toEqual({ ...before, timeZone: 'utc' })
    expect(await store.read.settings.get('display')).toEqual(after)
    const retention = await store.withTransaction((tx) => tx.settings.update('retention', { snapshotsDays: 30 }))
    expect(retention.snapshotsDays).toBe(30)
    expect(await store.read.settings.get('display')).toEqual(after)
  })

  it("commits a save's settings, a user's own display and its audit row together, or none of them", async () => {
    const { store } = subject()
    await store.withTransaction((tx) => tx.team.users.insert({ name: 'dana', role: 'operator', tokenHash: 'h' }, T0))
    const save = (critical: number) =>
      store.withTransaction(async (tx) => {
        await tx.team.users.saveDisplay('dana', { theme: 'light' })
        await tx.settings.update('retention', { snapshotsDays: 30 })
        await tx.team.audit.record({ actor: 'dana', action: 'saveSettings', subject: null, detail: null }, T0)
        // Above the warning level: refused, after the other writes.
        await tx.settings.update('thresholds', { critical })
      })
    const retention = await store.read.settings.get('retention')
    await expect(save(99)).rejects.toThrow()
    expect(await store.read.team.users.display('dana')).toEqual({})
    expect(await store.read.settings.get('retention')).toEqual(retention)
    expect(await store.read.team.audit.list({})).toEqual([])

    await save(50)
    expect(await store.read.team.users.display('dana')).toEqual({ theme: 'light' })
    expect((await store.read.settings.get('retention')).snapshotsDays).toBe(30)
    expect((await store.read.settings.get('thresholds')).critical).toBe(50)
    expect((await store.read.team.audit.list({})).map((e) => e.action)).toEqual(['saveSettings'])
  })

  it('refuses an invalid value and keeps what was there', async () => {
    const { store } = subject()
    await store.withTransaction((tx) => tx.settings.update('thresholds', { warning: 80, critical: 60 }))
    await expect(store.withTransaction((tx) => tx.settings.update('thresholds', { critical: 95 }))).rejects.toThrow()
    expect(await store.read.settings.get('thresholds')).toMatchObject({ warning: 80, critical: 60 })
  })
})
