// The app core through its contract: saving a connection moves polling from the demo to it,
// deleting it moves back; the UI only ever learns "secret stored: yes/no".
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import type { ConnectionTestReport, ConnectionView } from '../../src/shared/connections'
import type { AuditEntry } from '../../src/shared/team'
import type { Status } from '../../src/shared/domain'

let dir: string
let sim: RunningSimulator
let core: AppCore
const secrets = osKeychain(`eventwatch-test-${randomUUID()}`)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-app-conn-'))
  sim = await startSimulator({ liveSessions: 2, endedSessions: 1, viewersPerSession: 30 })
  core = await startAppCore({ db: join(dir, 'cache.db'), cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 60_000 }, secrets })
})

afterAll(async () => {
  await core?.close()
  await sim?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function value<T>(name: string, args: unknown): Promise<T> {
  const result = await core.dispatch(name, args)
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
  return result.value as T
}

async function waitForStatus(predicate: (s: Status) => boolean): Promise<Status> {
  for (let i = 0; i < 100; i++) {
    const status = await value<Status>('getStatus', {})
    if (predicate(status)) return status
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('status never matched')
}

describe('connections through the app API', () => {
  it('starts on the demo, switches to a saved connection, and back when it is deleted', async () => {
    expect((await waitForStatus((s) => s.pollState === 'ok')).mode).toBe('demo')

    const c = sim.credentials
    const saved = await value<ConnectionView>('saveConnection', {
      settings: {
        name: 'Tenant A',
        baseUrl: sim.baseUrl,
        authUrl: sim.authUrl,
        platformId: c.platformId,
        tenantId: c.tenantId,
        clientId: c.clientId
      },
      secret: c.clientSecret
    })
    expect(saved).toMatchObject({ name: 'Tenant A', secretStored: true, enabled: true })
    expect(JSON.stringify(saved)).not.toContain(c.clientSecret)

    const connected = await waitForStatus((s) => s.mode === 'connected' && s.pollState === 'ok')
    expect(connected.connectionName).toBe('Tenant A')
    const listed = await value<ConnectionView[]>('listConnections', {})
    expect(listed.map((v) => v.name)).toEqual(['Tenant A'])
    expect(JSON.stringify(listed)).not.toContain(c.clientSecret)

    const report = await value<{ ok: boolean }>('testConnection', { id: saved.id })
    expect(report.ok).toBe(true)

    await value('deleteConnection', { id: saved.id })
    expect(await secrets.read(saved.id)).toBeNull()
    expect((await waitForStatus((s) => s.mode === 'demo')).connectionName).toBe('Demo data')
  }, 30_000)

  it('rejects plain http to another host before anything is stored', async () => {
    const result = await core.dispatch('saveConnection', {
      settings: { name: 'Bad', baseUrl: 'http://api.example.com', authUrl: 'https://a.example.com', platformId: 'p', tenantId: 't', clientId: 'c' },
      secret: 'x'
    })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    expect(await value<ConnectionView[]>('listConnections', {})).toEqual([])
  })
})

describe('testing a connection before it is saved (issue 24, item 9)', () => {
  const draftOf = (name: string) => ({
    name,
    baseUrl: sim.baseUrl,
    authUrl: sim.authUrl,
    platformId: sim.credentials.platformId,
    tenantId: sim.credentials.tenantId,
    clientId: sim.credentials.clientId
  })

  it('tests a draft with its typed secret, says a wrong secret in words, and keeps nothing', async () => {
    const right = await value<ConnectionTestReport>('testConnectionDraft', { settings: draftOf('Draft tenant'), secret: sim.credentials.clientSecret })
    expect(right.ok).toBe(true)
    expect(right.steps.map((s) => s.step)).toEqual(['secret', 'token', 'sessions'])
    expect(JSON.stringify(right)).not.toContain(sim.credentials.clientSecret)

    const wrong = await value<ConnectionTestReport>('testConnectionDraft', { settings: draftOf('Draft tenant'), secret: 'not-the-secret' })
    expect(wrong.ok).toBe(false)
    expect(wrong.steps.at(-1)).toMatchObject({ step: 'token', ok: false, message: expect.stringMatching(/^wrong client ID or client secret: the service refused them/) })
    expect(JSON.stringify(wrong)).not.toContain('not-the-secret')

    // Nothing kept: no connection, no secret under the draft's name, no audit entry with the secret.
    expect(await value<ConnectionView[]>('listConnections', {})).toEqual([])
    expect(await secrets.read('draft')).toBeNull()
    const audit = await value<AuditEntry[]>('listAudit', {})
    expect(audit.filter((e) => e.action === 'testConnectionDraft')).toEqual([])
    expect(JSON.stringify(audit)).not.toContain(sim.credentials.clientSecret)
  }, 30_000)

  it('editing, an empty secret stands for the stored one and a typed one replaces it for the test only', async () => {
    const saved = await value<ConnectionView>('saveConnection', { settings: draftOf('Saved tenant'), secret: sim.credentials.clientSecret })
    try {
      const stored = await value<ConnectionTestReport>('testConnectionDraft', { id: saved.id, settings: { ...draftOf('Saved tenant'), enabled: false } })
      expect(stored.ok).toBe(true)
      const typed = await value<ConnectionTestReport>('testConnectionDraft', { id: saved.id, settings: draftOf('Saved tenant'), secret: 'typed-but-wrong' })
      expect(typed.ok).toBe(false)
      expect(await secrets.read(saved.id)).toBe(sim.credentials.clientSecret)
      expect((await value<ConnectionView[]>('listConnections', {}))[0]).toMatchObject({ name: 'Saved tenant', enabled: true })
      // The audit log keeps changes (the save) and not a test of what was typed.
      const actions = (await value<AuditEntry[]>('listAudit', {})).map((e) => e.action)
      expect(actions).toContain('saveConnection')
      expect(actions).not.toContain('testConnectionDraft')
    } finally {
      await value('deleteConnection', { id: saved.id })
    }
  }, 30_000)

  it('a new draft without a secret is refused by the contract, in words naming the field', async () => {
    const result = await core.dispatch('testConnectionDraft', { settings: { ...draftOf('No secret'), platformId: '' } })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    const noSecret = await value<ConnectionTestReport>('testConnectionDraft', { settings: draftOf('No secret') })
    expect(noSecret).toEqual({ ok: false, steps: [{ step: 'secret', ok: false, message: 'no client secret: type the client secret to test' }] })
  })
})

