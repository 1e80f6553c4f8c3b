// Maintenance windows: added with their author, read back by start, removed once.
import { expect, it } from 'vitest'
import type { NewMaintenance } from '../../../src/main/core/store/interface/maintenance'
import { eachBackend } from './backends'
import { MINUTE, T0, withConnection } from './fixtures'

const window = (name: string, startsAt: number, over: Partial<NewMaintenance> = {}): NewMaintenance => ({
  name,
  startsAt,
  endsAt: startsAt + 60 * MINUTE,
  repeat: 'none',
  timeZone: 'UTC',
  connectionId: null,
  contentId: null,
  eventSessionId: null,
  ...over
})

eachBackend('maintenance windows', (subject) => {
  it('adds windows with their author and connection, lists them by start, removes one once', async () => {
    const { store } = subject()
    await withConnection(store, 'A', 'Tenant A')
    const [late, early] = await store.withTransaction(async (tx) => [
      await tx.maintenance.add(window('Upgrade', T0 + 120 * MINUTE, { connectionId: 'A' }), 'dana', T0),
      await tx.maintenance.add(window('Patch', T0), null, T0)
    ])
    expect((await store.read.maintenance.list()).map((w) => w.id)).toEqual([early, late])
    expect(await store.read.maintenance.get(late!)).toMatchObject({ name: 'Upgrade', connectionName: 'Tenant A', createdBy: 'dana', repeat: 'none' })
    expect(await store.withTransaction((tx) => tx.maintenance.remove(early!))).toBe(true)
    expect(await store.withTransaction((tx) => tx.maintenance.remove(early!))).toBe(false)
    expect(await store.read.maintenance.get(early!)).toBeNull()
  })

  it('keeps no window added, nor loses one removed, in a unit that fails after', async () => {
    const { store } = subject()
    const kept = await store.withTransaction((tx) => tx.maintenance.add(window('Patch', T0), 'dana', T0))
    const cause = new Error('its audit row could not be written')
    await expect(
      store.withTransaction(async (tx) => {
        await tx.maintenance.add(window('Upgrade', T0 + 60 * MINUTE), 'dana', T0)
        await tx.maintenance.remove(kept)
        throw cause
      })
    ).rejects.toBe(cause)
    expect((await store.read.maintenance.list()).map((w) => w.name)).toEqual(['Patch'])
  })
})
