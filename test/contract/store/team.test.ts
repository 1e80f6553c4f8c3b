// The team's tables: users and their tokens, browser sign-ins, the audit log (TeamStore's shape).
import { expect, it } from 'vitest'
import { eachBackend } from './backends'
import { MINUTE, T0 } from './fixtures'

eachBackend('users, sign-ins and the audit log', (subject) => {
  it('finds a user by name and by token, and a new token ends the old sign-ins', async () => {
    const { store } = subject()
    const dana = await store.withTransaction((tx) => tx.team.users.insert({ name: 'dana', role: 'operator', tokenHash: 'h1' }, T0))
    expect(await store.read.team.users.find('dana')).toMatchObject({ name: 'dana', role: 'operator' })
    expect(await store.read.team.users.byTokenHash('h1')).toEqual({ id: dana.id, name: 'dana', role: 'operator' })
    await store.withTransaction((tx) => tx.team.sessions.insert({ idHash: 's1', userId: dana.id, expiresAt: T0 + 60 * MINUTE }, T0))
    expect((await store.read.team.sessions.userByHash('s1', T0 + MINUTE))?.name).toBe('dana')
    expect(await store.withTransaction((tx) => tx.team.users.replaceToken('dana', 'h2', T0 + 2 * MINUTE))).toBe(true)
    expect(await store.read.team.users.byTokenHash('h1')).toBeNull()
    expect(await store.read.team.sessions.userByHash('s1', T0 + 3 * MINUTE)).toBeNull()
  })

  it('ends a sign-in when it expires, and removes the expired ones', async () => {
    const { store } = subject()
    const lee = await store.withTransaction((tx) => tx.team.users.insert({ name: 'lee', role: 'viewer', tokenHash: 'h' }, T0))
    await store.withTransaction(async (tx) => {
      await tx.team.sessions.insert({ idHash: 'short', userId: lee.id, expiresAt: T0 + MINUTE }, T0)
      await tx.team.sessions.insert({ idHash: 'long', userId: lee.id, expiresAt: T0 + 60 * MINUTE }, T0)
    })
    expect(await store.read.team.sessions.userByHash('short', T0 + 2 * MINUTE)).toBeNull()
    expect(await store.withTransaction((tx) => tx.team.sessions.removeExpired(T0 + 2 * MINUTE))).toBe(1)
    expect((await store.read.team.sessions.userByHash('long', T0 + 2 * MINUTE))?.name).toBe('lee')
  })

  it('keeps the display each user chose, field by field, and none for a user it does not hold', async () => {
    const { store } = subject()
    await store.withTransaction((tx) => tx.team.users.insert({ name: 'dana', role: 'operator', tokenHash: 'h' }, T0))
    expect(await store.read.team.users.display('dana')).toEqual({})
    await store.withTransaction((tx) => tx.team.users.saveDisplay('dana', { timeZone: 'utc' }))
    expect(await store.withTransaction((tx) => tx.team.users.saveDisplay('dana', { theme: 'light' }))).toEqual({ timeZone: 'utc', theme: 'light' })
    expect(await store.read.team.users.display('dana')).toEqual({ timeZone: 'utc', theme: 'light' })
    expect(await store.withTransaction((tx) => tx.team.users.saveDisplay('nobody', { theme: 'light' }))).toBeNull()
  })

  it('pages the audit log newest first', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      for (let i = 0; i < 5; i++) await tx.team.audit.record({ actor: 'admin', action: `change-${i}`, subject: null, detail: null }, T0 + i * MINUTE)
    })
    const first = await store.read.team.audit.list({ limit: 2 })
    expect(first.map((e) => e.action)).toEqual(['change-4', 'change-3'])
    const next = await store.read.team.audit.list({ limit: 2, before: first.at(-1)!.id })
    expect(next.map((e) => e.action)).toEqual(['change-2', 'change-1'])
    expect(first[0]).toMatchObject({ actor: 'admin', at: new Date(T0 + 4 * MINUTE).toISOString() })
  })
})
