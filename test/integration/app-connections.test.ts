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
import type { ConnectionView } from '../../src/shared/connections'
import type { Status } from '../../src/shared/domain'

let dir: string
let sim: RunningSimulator
let core: AppCore
const secrets = osKeychain(`eventwatch-test-${randomUUID()}`)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-app-conn-'))
  sim = await startSimulator({ liveSessions: 2, endedSessions: 1, viewersPerSession: 30 })
  core = await startAppCore({ dbFile: join(dir, 'cache.db'), cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 60_000 }, secrets })
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
