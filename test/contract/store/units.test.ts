// Units of work: what withTransaction promises whatever the backend — all of a unit or none of
// it, nothing seen outside before the commit, one unit's read-then-write never lost to another.
import { expect, it } from 'vitest'
import { eachBackend } from './backends'
import { connectionSettings, sessionRecord, T0, withConnection } from './fixtures'

eachBackend('units of work', (subject) => {
  it('commits what a unit wrote when it fulfils, and hands back its value', async () => {
    const { store } = subject()
    const value = await store.withTransaction(async (tx) => {
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      await tx.sessions.storeList('A', [sessionRecord('s1', T0)], T0)
      return 'done'
    })
    expect(value).toBe('done')
    expect((await store.read.connections.get('A'))?.name).toBe('Tenant A')
    expect((await store.read.sessions.live('A')).map((s) => s.event_session_id)).toEqual(['s1'])
  })

  it('rolls back everything a unit wrote when it throws, and passes the error on', async () => {
    const { store } = subject()
    const cause = new Error('the rule failed half way')
    await expect(
      store.withTransaction(async (tx) => {
        await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
        await tx.sessions.storeList('A', [sessionRecord('s1', T0)], T0)
        await tx.team.audit.record({ actor: 'admin', action: 'addConnection', subject: 'A', detail: null }, T0)
        throw cause
      })
    ).rejects.toBe(cause)
    expect(await store.read.connections.get('A')).toBeNull()
    expect(await store.read.sessions.live()).toEqual([])
    expect(await store.read.team.audit.list({})).toEqual([])
  })

  it('rolls back the earlier writes when a later write of the unit fails', async () => {
    const { store } = subject()
    await expect(
      store.withTransaction(async (tx) => {
        await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
        // The same id again: the store refuses it.
        await tx.connections.insert(connectionSettings('Tenant A again'), 'A', T0)
      })
    ).rejects.toThrow()
    expect(await store.read.connections.list()).toEqual([])
  })

  it('keeps a unit’s writes from every other reader until it commits, and shows them to the unit itself', async () => {
    const { store, openOther } = subject()
    const other = await openOther()
    const seen: Record<string, unknown> = {}
    await store.withTransaction(async (tx) => {
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      seen.byUnit = (await tx.connections.get('A'))?.name
      seen.byRead = await store.read.connections.get('A')
      seen.byOther = await other.read.connections.get('A')
    })
    expect(seen).toEqual({ byUnit: 'Tenant A', byRead: null, byOther: null })
    expect((await store.read.connections.get('A'))?.name).toBe('Tenant A')
    expect((await other.read.connections.get('A'))?.name).toBe('Tenant A')
  })

  it('loses no update when units read then write the same row at the same time', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    const id = await store.withTransaction((tx) =>
      tx.alerts.insert(
        'A',
        { rule: 'monitor-blind', eventSessionId: null, eventName: null, state: 'firing', severity: 'critical', summary: 'blind', value: 0, streak: 0 },
        T0
      )
    )
    const bump = () =>
      store.withTransaction(async (tx) => {
        const [open] = await tx.alerts.open('A')
        await tx.alerts.setStreak(id, open!.streak + 1)
      })
    await Promise.all(Array.from({ length: 20 }, bump))
    expect((await store.read.alerts.open('A'))[0]?.streak).toBe(20)
  })

  it('refuses a write in a read-only unit, and writes nothing', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    await expect(
      store.withTransaction(
        async (tx) => {
          expect((await tx.connections.get('A'))?.id).toBe('A')
          await tx.connections.remove('A')
        },
        { readOnly: true }
      )
    ).rejects.toThrow(/read-only/)
    expect((await store.read.connections.get('A'))?.id).toBe('A')
  })

  it('lets a long read await other work between its reads, seeing one state while another store commits', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'A')
    const other = await openOther()
    const seen = await store.withTransaction(
      async (tx) => {
        const before = (await tx.connections.list()).map((c) => c.id)
        // Another server adds a connection while this read waits on something else (a timer:
        // an export's output draining); the read goes on seeing the state it began in.
        await other.withTransaction((otx) => otx.connections.insert(connectionSettings('B'), 'B', T0))
        await new Promise((resolve) => setTimeout(resolve, 20))
        const meanwhile = (await store.read.connections.list()).map((c) => c.id)
        const after = (await tx.connections.list()).map((c) => c.id)
        await expect(tx.connections.remove('A')).rejects.toThrow(/read-only/)
        return { before, meanwhile, after }
      },
      { readOnly: true, long: true }
    )
    expect(seen).toEqual({ before: ['A'], meanwhile: ['A', 'B'], after: ['A'] })
  })

  it('refuses a unit’s tx once the unit has ended', async () => {
    const { store } = subject()
    const leaked = await store.withTransaction(async (tx) => tx)
    await expect(leaked.connections.insert(connectionSettings('Late'), 'late', T0)).rejects.toThrow(/has ended/)
    await expect(leaked.connections.list()).rejects.toThrow(/has ended/)
    expect(await store.read.connections.get('late')).toBeNull()
  })

  it('refuses a unit opened inside another, and the outer one rolls back if it lets that throw', async () => {
    const { store } = subject()
    await expect(
      store.withTransaction(async (tx) => {
        await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
        await store.withTransaction((inner) => inner.connections.insert(connectionSettings('Tenant B'), 'B', T0))
      })
    ).rejects.toThrow(/cannot open another/)
    expect(await store.read.connections.list()).toEqual([])
  })

  it('runs units one after another: the second sees what the first committed', async () => {
    const { store } = subject()
    const order: string[] = []
    const first = store.withTransaction(async (tx) => {
      order.push('first begins')
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      order.push('first ends')
    })
    const second = store.withTransaction(async (tx) => {
      order.push('second begins')
      return (await tx.connections.get('A'))?.name
    })
    expect(await second).toBe('Tenant A')
    await first
    expect(order).toEqual(['first begins', 'first ends', 'second begins'])
  })

  it('finishes the units under way when closed, then refuses', async () => {
    const { store, openOther } = subject()
    const underWay = store.withTransaction((tx) => tx.connections.insert(connectionSettings('Tenant A'), 'A', T0))
    await store.close()
    expect((await underWay).id).toBe('A')
    await expect(store.withTransaction(async () => 1)).rejects.toThrow(/closed/)
    await expect(store.read.connections.list()).rejects.toThrow(/closed/)
    expect((await (await openOther()).read.connections.get('A'))?.id).toBe('A')
  })
})
