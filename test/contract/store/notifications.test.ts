// Notifications between the stores on one database (docs/store.md; docs/scaling-plan.md
// section 3): a unit sends an id on a channel, and every store listening hears it when — and only
// if — the unit commits, in commit order; a listener whose connection dropped is told when it is
// back. Every backend checks what a unit sends ('notifications'); listening is not applicable to
// SQLite (one server per file: backends.ts says so, and store-sqlite-units.test.ts holds it to
// having no store.notifications).
import { expect, it } from 'vitest'
import type { NotificationListener, Notifications } from '../../../src/main/core/store/interface/notifications'
import type { Store } from '../../../src/main/core/store/interface/store'
import { eachBackend } from './backends'
import { connectionSettings, T0 } from './fixtures'

/** A listener that keeps what it hears, and lets a test wait (no timer) until it has heard enough. */
function ear(): NotificationListener & { payloads: string[]; resumes: number; drops: Error[]; heard(n: number): Promise<string[]>; back(): Promise<void> } {
  const waits: (() => void)[] = []
  const wake = (): void => {
    for (const wait of waits.splice(0)) wait()
  }
  const until = async (done: () => boolean): Promise<void> => {
    while (!done()) await new Promise<void>((resolve) => waits.push(resolve))
  }
  const self = {
    payloads: [] as string[],
    resumes: 0,
    drops: [] as Error[],
    notified(payload: string) {
      self.payloads.push(payload)
      wake()
    },
    resumed() {
      self.resumes++
      wake()
    },
    dropped(cause: Error) {
      self.drops.push(cause)
      wake()
    },
    async heard(n: number) {
      await until(() => self.payloads.length >= n)
      return self.payloads
    },
    async back() {
      await until(() => self.resumes > 0)
    }
  }
  return self
}

/** The store's notifications: a backend that listens has them. */
function listening(store: Store): Notifications {
  expect(store.notifications, 'a backend that listens has store.notifications').toBeDefined()
  return store.notifications!
}

const send = (store: Store, payload: string, channel: 'ew_alerts' | 'ew_board' = 'ew_alerts') =>
  store.withTransaction((tx) => tx.notifications.send(channel, payload))

eachBackend('notifications', (subject) => {
  it('refuses, in words, a channel not ours or a payload that is data, and the unit rolls back', async () => {
    const { store } = subject()
    await expect(
      store.withTransaction(async (tx) => {
        await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
        await tx.notifications.send('ew_alerts; DROP TABLE alerts' as 'ew_alerts', '1')
      })
    ).rejects.toThrow(/"ew_alerts; DROP TABLE alerts" is no notification channel \(the channels are ew_alerts, ew_board, ew_settings, ew_poll_requests, ew_poll_answers\)/)
    await expect(
      store.withTransaction(async (tx) => {
        await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
        await tx.notifications.send('ew_board', 'x'.repeat(201))
      })
    ).rejects.toThrow(/a notification on ew_board carries 201 bytes, over 200: notify ids/)
    expect(await store.read.connections.list()).toEqual([])
    // What fits is sent, and the unit commits.
    await store.withTransaction(async (tx) => {
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      await tx.notifications.send('ew_board', 'A')
    })
    expect((await store.read.connections.get('A'))?.name).toBe('Tenant A')
  })

  it('sends only from a writing unit: not from store.read, nor from a read-only unit', async () => {
    const { store } = subject()
    const read = store.read as unknown as { notifications: { send(channel: string, payload: string): Promise<void> } }
    await expect(read.notifications.send('ew_alerts', '1')).rejects.toThrow(/store.read only reads/)
    await expect(store.withTransaction((tx) => tx.notifications.send('ew_alerts', '1'), { readOnly: true })).rejects.toThrow(/read-only unit/)
  })
})

eachBackend('listening', (subject) => {

  it('delivers what committed units sent to every store listening, its own too, in commit order', async () => {
    const { store, openOther } = subject()
    const other = await openOther()
    const [here, there] = [ear(), ear()]
    await listening(store).listen('ew_alerts', here)
    await listening(other).listen('ew_alerts', there)
    await send(store, '1')
    await send(other, '2')
    await send(store, '3')
    expect(await there.heard(3)).toEqual(['1', '2', '3'])
    expect(await here.heard(3)).toEqual(['1', '2', '3'])
  })

  it('never delivers what a rolled-back unit sent, nor what was sent on another channel', async () => {
    const { store, openOther } = subject()
    const other = await openOther()
    const there = ear()
    await listening(other).listen('ew_alerts', there)
    await expect(
      store.withTransaction(async (tx) => {
        await tx.notifications.send('ew_alerts', 'rolled back')
        throw new Error('the unit failed after sending')
      })
    ).rejects.toThrow(/failed after sending/)
    await send(store, 'A', 'ew_board')
    await send(store, 'committed')
    // Delivery is in commit order: had the first been delivered, it would have come first.
    expect(await there.heard(1)).toEqual(['committed'])
  })

  it('does not deliver before the commit: a listener hears nothing of a unit still open', async () => {
    const { store, openOther } = subject()
    const other = await openOther()
    const there = ear()
    await listening(other).listen('ew_board', there)
    const heardInside = await store.withTransaction(async (tx) => {
      await tx.notifications.send('ew_board', 'A')
      // A round trip of the other store's: a notification delivered already would be in by now.
      await other.read.connections.list()
      return [...there.payloads]
    })
    expect(heardInside).toEqual([])
    expect(await there.heard(1)).toEqual(['A'])
  })

  it('stops delivering to a listener that stopped, and goes on for the others', async () => {
    const { store, openOther } = subject()
    const other = await openOther()
    const [stopping, staying] = [ear(), ear()]
    const stop = await listening(other).listen('ew_alerts', stopping)
    await listening(other).listen('ew_alerts', staying)
    await send(store, '1')
    expect(await stopping.heard(1)).toEqual(['1'])
    await stop()
    await send(store, '2')
    expect(await staying.heard(2)).toEqual(['1', '2'])
    expect(stopping.payloads).toEqual(['1'])
  })

  it('reconnects when its listening connection drops, says why and that it is back, and hears again', async () => {
    const { store, openOther, dropListening } = subject()
    const other = await openOther()
    const there = ear()
    await listening(other).listen('ew_alerts', there)
    await send(store, 'before')
    await there.heard(1)
    expect(await dropListening()).toBe(1)
    await there.back()
    expect(there.resumes).toBe(1)
    expect(there.drops.map(String)).toEqual([expect.stringMatching(/the connection listening for notifications on .* dropped \(.*\); reconnecting/)])
    await send(store, 'after')
    expect(await there.heard(2)).toEqual(['before', 'after'])
  })

  it('refuses to listen once the store is closed, and a channel not ours', async () => {
    const { openOther } = subject()
    const other = await openOther()
    const notifications = listening(other)
    await expect(notifications.listen('ew_nothing' as 'ew_alerts', ear())).rejects.toThrow(/"ew_nothing" is no notification channel/)
    await other.close()
    await expect(notifications.listen('ew_alerts', ear())).rejects.toThrow(/the store is closed/)
  })
})
