// The team server's users on a real (in-memory) SQLite cache through the TeamStore interface:
// tokens shown once and kept as hashes, rotation and removal ending access at once, browser
// sessions that expire, "last seen" written at most once a minute.
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { teamTablesOnDb } from '../../src/main/core/store/sqlite/team-tables'
import { SESSION_LIFETIME_MS, TeamUsers } from '../../src/main/core/team/users'

let db: Db
afterEach(() => db?.close())

function users(start = Date.parse('2026-11-25T12:00:00Z')) {
  db = openDatabase(':memory:')
  const clock = { now: start }
  return { team: new TeamUsers(teamTablesOnDb(db), () => clock.now), clock }
}

describe('team users', () => {
  it('keeps only a hash of each token, and refuses a second user of the same name', async () => {
    const { team } = users()
    const { user, token } = await team.add('alice', 'operator')
    expect(user).toMatchObject({ name: 'alice', role: 'operator', lastSeenAt: null })
    expect(token).toMatch(/^ewu_[\w-]{43}$/)
    const stored = JSON.stringify(db.prepare('SELECT * FROM users').all())
    expect(stored).not.toContain(token)
    expect(stored).not.toContain(token.slice(4))
    await expect(team.add('Alice', 'viewer')).rejects.toThrow(/already a user named Alice/)
    await expect(team.add('<script>', 'viewer')).rejects.toThrow(/not a user name/)
    expect(await team.byToken(token)).toMatchObject({ name: 'alice', role: 'operator' })
    expect(await team.byToken(`${token}x`)).toBeNull()
  })

  it('ends the old token and every browser session at a rotation, and everything at a removal', async () => {
    const { team } = users()
    const { token } = await team.add('bob', 'operator')
    const session = (await team.signIn(token))!
    expect(await team.bySession(session.sessionId)).toMatchObject({ name: 'bob' })

    const fresh = await team.rotate('bob')
    expect(await team.byToken(token)).toBeNull()
    expect(await team.bySession(session.sessionId)).toBeNull()
    const again = (await team.signIn(fresh))!
    expect(await team.remove('bob')).toBe(true)
    expect(await team.byToken(fresh)).toBeNull()
    expect(await team.bySession(again.sessionId)).toBeNull()
    await expect(team.rotate('bob')).rejects.toThrow(/no user named bob/)
  })

  it('lets a browser session expire, and signs out', async () => {
    const { team, clock } = users()
    const { token } = await team.add('wall', 'viewer')
    const first = (await team.signIn(token))!
    const second = (await team.signIn(token))!
    await team.signOut(second.sessionId)
    expect(await team.bySession(second.sessionId)).toBeNull()
    clock.now += SESSION_LIFETIME_MS
    expect(await team.bySession(first.sessionId)).toBeNull()
    expect(await team.signIn('ewu_nobody')).toBeNull()
  })

  it('writes "last seen" at most once a minute', async () => {
    const { team, clock } = users()
    const { token } = await team.add('val', 'viewer')
    await team.byToken(token)
    const seen = (await team.list())[0]!.lastSeenAt
    expect(seen).toBe(new Date(clock.now).toISOString())
    clock.now += 30_000
    await team.byToken(token)
    expect((await team.list())[0]!.lastSeenAt).toBe(seen)
    clock.now += 31_000
    await team.byToken(token)
    expect((await team.list())[0]!.lastSeenAt).toBe(new Date(clock.now).toISOString())
  })
})
