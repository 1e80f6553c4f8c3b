// The team client against a team server that says things outside the contract (another version,
// a proxy between the two), over real loopback HTTP: each answer and push is checked before
// anything of it is used; one that does not fit is refused by name and field, nothing of it is
// passed on, and the desk shows the team server failing with that cause, then takes the stream
// up again. Revisions pass as the server counts them, with its epoch.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { connectTeamServer, type TeamClient } from '../../src/main/core/app/team-client'
import type { AlertsChanged } from '../../src/shared/alerts'
import type { EventName } from '../../src/shared/contract'
import type { SessionsChanged, Status } from '../../src/shared/domain'
import { liveRow, situationIn, startFakeTeamServer, type FakeTeamServer, type TeamWorld } from '../support/fake-team-server'

const WORLD: TeamWorld = { epoch: 'boot-1', boardRevision: 40, alertRevision: 70, sessions: [liveRow('s1', 'Town Hall')], facts: {} }
/** Bidirectional and zero-width controls: nothing of them may reach a screen through an error. */
const HOSTILE = '\u202eevil\u200b\u2066'

let server: FakeTeamServer | undefined
let client: TeamClient | undefined
afterEach(async () => {
  await client?.close()
  await server?.close()
  client = server = undefined
})

/** The client, its stream up, and everything it passed on, in order. */
async function connected(world: TeamWorld = WORLD) {
  server = await startFakeTeamServer(world)
  client = connectTeamServer({ url: server.origin, token: 'desk-token' }, { backoffMs: [100] })
  const heard: { name: EventName; payload: unknown }[] = []
  client.onEvent((name, payload) => heard.push({ name, payload }))
  await vi.waitFor(() => expect(client!.online).toBe(true))
  await vi.waitFor(() => expect(heard.map((e) => e.name)).toEqual(['statusChanged', 'alertsChanged']))
  const of = <T>(name: EventName): T[] => heard.filter((e) => e.name === name).map((e) => e.payload as T)
  /** Until the stream is taken up again and the server's status read afresh. */
  const backUp = () => vi.waitFor(() => expect(of<Status>('statusChanged').at(-1)?.pollState).toBe('ok'), { timeout: 5000 })
  return { server, client, heard, of, backUp }
}

/** The status the desk shows once it holds the team server failing. */
async function failingStatus(c: TeamClient, of: <T>(name: EventName) => T[]): Promise<Status> {
  await vi.waitFor(() => expect(of<Status>('statusChanged').at(-1)?.pollState).toBe('error'))
  const status = of<Status>('statusChanged').at(-1)!
  const asked = await c.dispatch('getStatus', {})
  expect(asked).toEqual({ ok: true, value: status })
  return status
}

describe('the team client checks every answer against the contract', () => {
  it('refuses an answer of the wrong type by request and field, passes nothing of it, and shows the server failing', async () => {
    const { server, client, of } = await connected()
    server.answers.set('listLiveSessions', { ok: true, value: { revision: '41', epoch: 'boot-1', sessions: [] } })
    const answer = await client.dispatch('listLiveSessions', {})
    expect(answer).toEqual({
      ok: false,
      error: {
        code: 'unreadable',
        message: expect.stringMatching(/^The team server http:\/\/127\.0\.0\.1:\d+ answered listLiveSessions outside the contract, at revision: .*number.*Is it running another version of Eventwatch\?$/)
      }
    })
    const status = await failingStatus(client, of)
    expect(status.connections).toEqual([
      expect.objectContaining({ connectionId: 'team-server', state: 'failing', reason: expect.stringMatching(/^answered listLiveSessions outside the contract, at revision: /) })
    ])
    expect(status.lastError).toMatch(/^Team server http:\/\/127\.0\.0\.1:\d+ answered listLiveSessions outside the contract, at revision: /)
    // Every face turns blind, and says why in its headline.
    expect(of<AlertsChanged>('alertsChanged').at(-1)!.situation).toMatchObject({ tray: 'blind', headline: expect.stringMatching(/^Team server failing since /) })
  })

  it('refuses an answer with a field missing, one that is no result, and one that is not JSON', async () => {
    const { server, client } = await connected()
    server.answers.set('listAlerts', { ok: true, value: { alerts: [] } })
    expect(await client.dispatch('listAlerts', {})).toMatchObject({ ok: false, error: { message: expect.stringContaining('answered listAlerts outside the contract, at situation: ') } })
    server.answers.set('listConnections', { value: 1 })
    expect(await client.dispatch('listConnections', {})).toMatchObject({ ok: false, error: { message: expect.stringContaining('answered listConnections with something that is not a result, at ok: ') } })
    server.answers.set('listWebhooks', { raw: '{"ok": true, "value": [' })
    expect(await client.dispatch('listWebhooks', {})).toMatchObject({ ok: false, error: { message: expect.stringContaining('answered listWebhooks with something that is not JSON') } })
  })

  it('says a hostile value back plain, passes no key outside the contract, and plain refusals of the server', async () => {
    const { server, client, of, backUp } = await connected()
    server.answers.set('getIdentity', { ok: true, value: { name: 'alice', role: HOSTILE, team: true } })
    const refused = await client.dispatch('getIdentity', {})
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringContaining('answered getIdentity outside the contract, at role: ') } })
    expect(JSON.stringify(refused)).not.toMatch(/[\u202e\u200b\u2066]/)
    const status = await failingStatus(client, of)
    expect(JSON.stringify(status)).not.toMatch(/[\u202e\u200b\u2066]/)

    // Back again (the next stream): a key the contract does not know is not passed on.
    await backUp()
    server.answers.set('getIdentity', { ok: true, value: { name: 'alice', role: 'operator', team: true, [HOSTILE]: HOSTILE } })
    expect(await client.dispatch('getIdentity', {})).toEqual({ ok: true, value: { name: 'alice', role: 'operator', team: true } })
    // A refusal of the server's own is passed on, its words made plain.
    server.answers.set('deleteConnection', { ok: false, error: { code: 'forbidden', message: `No ${HOSTILE} way.` } })
    expect(await client.dispatch('deleteConnection', { id: 'c1' })).toEqual({ ok: false, error: { code: 'forbidden', message: 'No evil way.' } })
  })
})

describe('the team client checks every push against the contract', () => {
  it('passes nothing of a push outside the contract, shows the server failing with its name and field, and takes the stream up again', async () => {
    const { server, client, heard, of, backUp } = await connected()
    const streams = server.streams
    const bad: SessionsChanged = { revision: 41, epoch: 'boot-1', at: '2026-03-01T12:00:15.000Z', liveCount: 1, storedCount: 1, rows: [liveRow('s1', 'Town Hall')], removed: [] }
    server.push('sessionsChanged', { ...bad, rows: [{ ...bad.rows[0], viewersCount: 'many' }] })
    const status = await failingStatus(client, of)
    expect(status.lastError).toMatch(/ pushed sessionsChanged outside the contract, at rows\.0\.viewersCount: .*number/)
    expect(heard.filter((e) => e.name === 'sessionsChanged')).toEqual([])

    // Dropped, the stream is asked for again, and pushes that fit flow as the server counts them.
    await backUp()
    expect(server.streams).toBe(streams + 1)
    server.push('sessionsChanged', bad)
    await vi.waitFor(() => expect(of<SessionsChanged>('sessionsChanged')).toEqual([bad]))
  })

  it('refuses a push that is not JSON, or with a field missing', async () => {
    const { server, client, of, backUp } = await connected()
    server.push('alertsChanged', { raw: '{"situation":' })
    expect((await failingStatus(client, of)).lastError).toMatch(/ pushed alertsChanged with something that is not JSON$/)
    await backUp()
    const { revision: _dropped, ...noRevision } = situationIn(WORLD)
    server.push('alertsChanged', { situation: noRevision, changed: [], removed: [], fired: [], resolved: [], repeated: [], silenced: [] })
    expect((await failingStatus(client, of)).lastError).toMatch(/ pushed alertsChanged outside the contract, at situation\.revision: /)
    expect(of<AlertsChanged>('alertsChanged').every((p) => p.situation.revision !== undefined)).toBe(true)
  })
})

describe('revisions from a team server', () => {
  it("passes the server's revisions and epoch as they are; its own words are in an epoch of the desk's", async () => {
    const { server, client, of } = await connected()
    expect(of<AlertsChanged>('alertsChanged')[0]!.situation).toMatchObject({ revision: 70, epoch: 'boot-1' })
    expect(await client.dispatch('listLiveSessions', {})).toMatchObject({ ok: true, value: { revision: 40, epoch: 'boot-1' } })

    // The server restarts: the desk says so in its own epoch, then passes the new one's words.
    server.become({ ...WORLD, epoch: 'boot-2', boardRevision: 0, alertRevision: 0 })
    server.dropStreams()
    await vi.waitFor(() => expect(of<AlertsChanged>('alertsChanged').at(-1)!.situation.tray).toBe('blind'))
    const offline = of<AlertsChanged>('alertsChanged').at(-1)!.situation
    expect(offline.epoch).not.toMatch(/^boot-/)
    await vi.waitFor(() => expect(of<AlertsChanged>('alertsChanged').at(-1)!.situation).toMatchObject({ revision: 0, epoch: 'boot-2' }), { timeout: 5000 })
  })
})
