// Maintenance windows: added with their author, read back by start, removed once.
import { expect, it } from 'vitest'
import { repeatPhase } from '../../../src/shared/maintenance'
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

  it('finds the windows that may be in force through its lookups: the longest of a kind, one-off ones under way, the zones and phases of repeating ones', async () => {
    const { store } = subject()
    const DAY = 24 * 60 * MINUTE
    await store.withTransaction(async (tx) => {
      await tx.maintenance.add(window('Short', T0), null, T0)
      await tx.maintenance.add(window('Long', T0 - 2 * 60 * MINUTE, { endsAt: T0 + 3 * 60 * MINUTE }), null, T0)
      await tx.maintenance.add(window('Later', T0 + DAY), null, T0)
      await tx.maintenance.add(window('Nightly', T0 - 7 * DAY, { repeat: 'daily', timeZone: 'Europe/Berlin' }), null, T0)
      await tx.maintenance.add(window('Weekly', T0 - 7 * DAY, { repeat: 'weekly', timeZone: 'UTC' }), null, T0)
    })
    const read = store.read.maintenance
    expect(await read.longest('none')).toBe(5 * 60 * MINUTE)
    expect(await read.longest('daily')).toBe(60 * MINUTE)
    // Under way at T0 + 30 min: begun no longer ago than the longest, not ended.
    expect((await read.onceInForce(T0 + 30 * MINUTE, 5 * 60 * MINUTE)).map((w) => w.name).sort()).toEqual(['Long', 'Short'])
    expect((await read.onceInForce(T0 + 2 * 60 * MINUTE, 5 * 60 * MINUTE)).map((w) => w.name)).toEqual(['Long'])
    expect(await read.zones('daily')).toEqual(['Europe/Berlin'])
    expect(await read.zones('weekly')).toEqual(['UTC'])
    // The weekly window's phase is its start's time of the week: looked up there, it is found; elsewhere not.
    const lookup = { repeat: 'weekly' as const, zone: 'UTC', now: T0 + 30 * MINUTE, period: 7 * DAY, slop: 0 }
    const weekly = (await read.list()).find((w) => w.name === 'Weekly')!
    // Its phase: its start's time of the week on its zone's clocks, as the store keeps it.
    const phase = repeatPhase('weekly', 'UTC', weekly.startsAt)!
    expect((await read.repeatCandidates({ ...lookup, phaseNow: phase + 30 * MINUTE, from: phase - MINUTE, to: phase + MINUTE })).map((w) => w.name)).toEqual(['Weekly'])
    expect(await read.repeatCandidates({ ...lookup, phaseNow: phase + 30 * MINUTE, from: phase + MINUTE, to: phase + 2 * MINUTE })).toEqual([])
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
