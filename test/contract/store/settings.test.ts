// Settings: defaults until changed, a change merged into what is kept, an invalid one refused whole.
import { expect, it } from 'vitest'
import { eachBackend } from './backends'

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

  it('refuses an invalid value and keeps what was there', async () => {
    const { store } = subject()
    await store.withTransaction((tx) => tx.settings.update('thresholds', { warning: 80, critical: 60 }))
    await expect(store.withTransaction((tx) => tx.settings.update('thresholds', { critical: 95 }))).rejects.toThrow()
    expect(await store.read.settings.get('thresholds')).toMatchObject({ warning: 80, critical: 60 })
  })
})
