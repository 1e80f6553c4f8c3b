// ConnectionService and the connections repository on a real SQLite file and the real OS keychain
// (Secret Service over D-Bus; `npm test` provides one), under a service name of this file's own.
// The service works through the Store, on the cache's own connection as the core opens it.
import { randomUUID } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import keytar from 'keytar'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ConnectionInput } from '../../src/shared/connections'
import type { EventSessionRecord } from '../../src/main/core/api/schemas'
import { ConnectionError } from '../../src/main/core/connections/errors'
import { listConnections } from '../../src/main/core/store/connections'
import { ConnectionService } from '../../src/main/core/connections/service'
import { testConnection } from '../../src/main/core/connections/test-connection'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { DEMO_CREDENTIALS, startSimulator } from '../../src/main/core/simulator/server'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { upsertConnection } from '../../src/main/core/store/connections'

const SERVICE = `eventwatch-test-${randomUUID()}`
const keychain = osKeychain(SERVICE)
/** Every account this file may have written, removed at the end whatever happened. */
const accounts = new Set<string>()

let dir: string
let file: string
let db: Db
let store: SqliteStore
let service: ConnectionService

function openCache(): void {
  db = openDatabase(file)
  store = openSqliteStore(file, { writer: db })
  service = new ConnectionService(store, keychain)
}

async function closeCache(): Promise<void> {
  await store.close()
  db.close()
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-connections-'))
  file = join(dir, 'cache.db')
  openCache()
})

afterEach(async () => {
  if (db.open) {
    for (const c of listConnections(db, { includeDemo: true })) accounts.add(c.id)
    await closeCache()
  }
  rmSync(dir, { recursive: true, force: true })
})

afterAll(async () => {
  for (const account of accounts) await keychain.remove(account).catch(() => undefined)
})

const settings = (overrides: Partial<ConnectionInput> = {}): ConnectionInput => ({
  name: 'Contoso production',
  baseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
  platformId: 'platform-1',
  tenantId: 'tenant-1',
  clientId: 'client-1',
  ...overrides
})

async function saved(overrides: Partial<ConnectionInput> = {}, secret?: string) {
  const view = await service.save(settings(overrides), secret)
  accounts.add(view.id)
  return view
}

async function failure(promise: Promise<unknown>): Promise<ConnectionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(ConnectionError)
  return error as ConnectionError
}

const sessionRecord = (id: string): EventSessionRecord => ({
  eventSessionId: id,
  platformId: 'platform-1',
  tenantId: 'tenant-1',
  contentId: 'content-1',
  eventName: 'Town hall',
  startedAt: '2025-01-01T10:00:00Z',
  updatedAt: '2025-01-01T10:05:00Z',
  hasEnded: false,
  viewersCount: 10,
  reliabilityScore: 0.9,
  cdnTraffic: 1,
  ecdnTraffic: 2
})

describe('saving connections', () => {
  it('keeps the secret in the keychain only: neither the .db nor the -wal file holds it', async () => {
    const secret = `s3cret-${randomUUID()}`
    const view = await saved({}, secret)
    expect(view.secretStored).toBe(true)
    expect(await keychain.read(view.id)).toBe(secret)

    const raw = (path: string) => (existsSync(path) ? readFileSync(path) : Buffer.alloc(0))
    // While open (the row sits in the WAL) and after closing (checkpointed into the .db).
    expect(raw(`${file}-wal`).length).toBeGreaterThan(0)
    for (const bytes of [raw(file), raw(`${file}-wal`)]) expect(bytes.includes(secret)).toBe(false)
    await closeCache()
    for (const bytes of [raw(file), raw(`${file}-wal`)]) expect(bytes.includes(secret)).toBe(false)
    // The row is there, though: the check above is not vacuous.
    expect(raw(file).includes('Contoso production')).toBe(true)
  })

  it('lists secretStored true or false per connection, never the demo row', async () => {
    upsertConnection(db, {
      id: 'demo',
      name: 'Demo data',
      baseUrl: 'http://127.0.0.1:9',
      authUrl: 'http://127.0.0.1:9',
      platformId: 'p',
      tenantId: 't',
      clientId: 'c',
      isDemo: true
    })
    const withSecret = await saved({ name: 'With secret' }, `secret-${randomUUID()}`)
    const without = await saved({ name: 'Without secret' })
    const list = await service.list()
    expect(list.map((c) => [c.name, c.secretStored])).toEqual([
      ['With secret', true],
      ['Without secret', false]
    ])
    expect(list.every((c) => !c.isDemo)).toBe(true)
    expect(list.find((c) => c.id === withSecret.id)).not.toHaveProperty('clientSecret')
    expect(without.secretStored).toBe(false)
    // The demo row is not a user connection: it cannot be found, changed or removed as one.
    expect(await service.findByName('demo data')).toBeNull()
    expect((await failure(service.setEnabled('demo', false))).kind).toBe('not-found')
    expect(await service.remove('demo')).toBe(false)
    expect(listConnections(db, { includeDemo: true }).some((c) => c.isDemo)).toBe(true)
  })

  it('rejects a duplicate name, whatever its case, and stores nothing for it', async () => {
    await saved({ name: 'Contoso' })
    const before = (await keytar.findCredentials(SERVICE)).length
    const secret = `dup-${randomUUID()}`
    const error = await failure(service.save(settings({ name: 'CONTOSO' }), secret))
    expect(error.kind).toBe('configuration')
    expect(error.field).toBe('name')
    expect(error.message).toMatch(/name "CONTOSO" is already used/)
    expect(error.message).not.toContain(secret)
    expect((await service.list()).map((c) => c.name)).toEqual(['Contoso'])
    expect(await keytar.findCredentials(SERVICE)).toHaveLength(before)
  })

  it('rejects the demo connection’s name too', async () => {
    upsertConnection(db, {
      id: 'demo',
      name: 'Demo data',
      baseUrl: 'http://127.0.0.1:9',
      authUrl: 'http://127.0.0.1:9',
      platformId: 'p',
      tenantId: 't',
      clientId: 'c',
      isDemo: true
    })
    expect((await failure(service.save(settings({ name: 'demo DATA' })))).message).toMatch(/demo connection/)
  })

  it('validates the settings, naming the field and the reason', async () => {
    const cases: [Partial<ConnectionInput>, string, RegExp][] = [
      [{ baseUrl: 'http://api.example.com' }, 'baseUrl', /must use https/],
      [{ authUrl: 'ftp://auth.example.com' }, 'authUrl', /must use https/],
      [{ baseUrl: 'https://user:pw@api.example.com' }, 'baseUrl', /user name or password/],
      [{ baseUrl: 'not a url' }, 'baseUrl', /must be a full address such as https:\/\/api\.example\.com/],
      [{ authUrl: 'https://' }, 'authUrl', /must be a full address such as https:\/\/auth\.example\.com/],
      [{ tenantId: '  ' }, 'tenantId', /tenant-id is required/]
    ]
    for (const [overrides, field, reason] of cases) {
      const error = await failure(service.save(settings(overrides)))
      expect(error.kind).toBe('configuration')
      expect(error.field).toBe(field)
      expect(error.message).toMatch(new RegExp(`^${field}: `))
      expect(error.message).toMatch(reason)
    }
    expect(await service.list()).toEqual([])
    // Loopback may use plain http (the simulator).
    for (const url of ['http://127.0.0.1:8080', 'http://localhost:3000/api', 'http://[::1]:9000']) {
      await saved({ name: `local ${url}`, baseUrl: url, authUrl: url })
    }
    expect(await service.list()).toHaveLength(3)
  })

  it('updates a connection in place, keeping or replacing its secret', async () => {
    const first = `first-${randomUUID()}`
    const view = await saved({}, first)
    const renamed = await service.save(settings({ name: 'Renamed', origin: 'https://portal.example.com' }), undefined, view.id)
    expect(renamed).toMatchObject({ id: view.id, name: 'Renamed', origin: 'https://portal.example.com', secretStored: true })
    expect(await keychain.read(view.id)).toBe(first)
    const second = `second-${randomUUID()}`
    await service.save(settings({ name: 'Renamed' }), second, view.id)
    expect(await keychain.read(view.id)).toBe(second)
    expect(await service.target(view.id)).not.toHaveProperty('origin')
    expect((await failure(service.save(settings(), undefined, 'no-such-id'))).kind).toBe('not-found')
  })

  it('puts back the secret that was there when the cache refuses the row, and says why', async () => {
    const first = `first-${randomUUID()}`
    const view = await saved({}, first)
    // The cache refuses every change to a connection's row, as a full disk would.
    db.exec("CREATE TRIGGER refuse_rows BEFORE UPDATE ON connections BEGIN SELECT RAISE(ABORT, 'no room for the row'); END")
    db.exec("CREATE TRIGGER refuse_new_rows BEFORE INSERT ON connections BEGIN SELECT RAISE(ABORT, 'no room for the row'); END")
    const second = `second-${randomUUID()}`
    const refusal = (promise: Promise<unknown>): Promise<Error> =>
      promise.then(() => new Error('saved after all'), (e: unknown) => e as Error)
    const refused = await refusal(service.save(settings({ name: 'Renamed' }), second, view.id))
    expect(refused.message).toMatch(/no room for the row/)
    expect(refused.message).not.toContain(second)
    expect(await keychain.read(view.id)).toBe(first)
    expect((await service.get(view.id)).name).toBe('Contoso production')

    const before = (await keytar.findCredentials(SERVICE)).length
    const third = `third-${randomUUID()}`
    const notAdded = await refusal(service.save(settings({ name: 'New tenant' }), third))
    expect(notAdded.message).toMatch(/no room for the row/)
    expect(await keytar.findCredentials(SERVICE)).toHaveLength(before)
    expect((await service.list()).map((c) => c.name)).toEqual(['Contoso production'])
  })

  it('keeps two connections side by side; enable/disable persists across reopening', async () => {
    const a = await saved({ name: 'Tenant A', tenantId: 'a' })
    const b = await saved({ name: 'Tenant B', tenantId: 'b', enabled: false })
    expect(b.enabled).toBe(false)
    expect((await service.setEnabled(a.id, false)).enabled).toBe(false)
    expect((await service.setEnabled(b.id, true)).enabled).toBe(true)
    await closeCache()
    openCache()
    const list = await service.list()
    expect(list.map((c) => [c.name, c.tenantId, c.enabled])).toEqual([
      ['Tenant A', 'a', false],
      ['Tenant B', 'b', true]
    ])
    expect((await service.findByName('tenant b'))?.id).toBe(b.id)
  })

  it('keeps a reliability scale per connection, and says which scale is in use and why', async () => {
    const a = await saved({ name: 'Tenant A', tenantId: 'a' })
    const b = await saved({ name: 'Tenant B', tenantId: 'b', reliabilityScale: '0-100' })
    expect(a.reliabilityScale).toEqual({
      setting: 'auto', value: '0-100', source: 'default', reason: 'no sessions cached for this connection yet; assumed 0–100'
    })
    expect(b.reliabilityScale).toEqual({ setting: '0-100', value: '0-100', source: 'setting', reason: 'set for this connection' })
    // Nothing polls them here.
    expect([a.polled, b.polled]).toEqual([false, false])

    // A's own scores decide A's scale; B's setting holds, whatever B's scores look like.
    storeSessionSnapshot(db, a.id, sessionRecord('s-a'), Date.parse('2025-01-01T10:05:00Z'))
    storeSessionSnapshot(db, b.id, sessionRecord('s-b'), Date.parse('2025-01-01T10:05:00Z'))
    const scales = Object.fromEntries((await service.list()).map((c) => [c.name, c.reliabilityScale]))
    expect(scales['Tenant A']).toMatchObject({ setting: 'auto', value: '0-1', source: 'detected' })
    expect(scales['Tenant A']?.reason).toMatch(/between 0 and 1 \(1 session\)/)
    expect(scales['Tenant B']).toMatchObject({ setting: '0-100', value: '0-100', source: 'setting' })

    // Saved again with another setting: it wins over the data.
    const forced = await service.save(settings({ name: 'Tenant A', tenantId: 'a', reliabilityScale: '0-100' }), undefined, a.id)
    expect(forced.reliabilityScale).toMatchObject({ setting: '0-100', value: '0-100', source: 'setting' })
    expect((await failure(service.save(settings({ reliabilityScale: '0-10' as never }))))).toMatchObject({
      kind: 'configuration',
      field: 'reliabilityScale'
    })
  })

  it('gives the client its target, with Origin/Referer when set', async () => {
    const view = await saved({ origin: 'https://portal.example.com', referer: 'https://portal.example.com/x' })
    expect(await service.target(view.id)).toEqual({
      id: view.id,
      name: 'Contoso production',
      baseUrl: 'https://api.example.com',
      authUrl: 'https://auth.example.com',
      platformId: 'platform-1',
      tenantId: 'tenant-1',
      clientId: 'client-1',
      origin: 'https://portal.example.com',
      referer: 'https://portal.example.com/x'
    })
  })
})

describe('removing connections', () => {
  it('deletes the keychain entry, the row and its cached sessions', async () => {
    const secret = `gone-${randomUUID()}`
    const view = await saved({}, secret)
    const other = await saved({ name: 'Other' })
    storeSessionSnapshot(db, view.id, sessionRecord('s1'), Date.now())
    storeSessionSnapshot(db, other.id, sessionRecord('s1'), Date.now())
    const count = (table: string, id: string) =>
      (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE connection_id = ?`).get(id) as { n: number }).n
    expect(count('sessions', view.id)).toBe(1)
    expect(count('snapshots', view.id)).toBe(1)

    expect(await service.remove(view.id)).toBe(true)
    expect(await keychain.read(view.id)).toBeNull()
    expect((await service.list()).map((c) => c.id)).toEqual([other.id])
    expect(count('sessions', view.id)).toBe(0)
    expect(count('snapshots', view.id)).toBe(0)
    // The other connection's cache is untouched.
    expect(count('sessions', other.id)).toBe(1)
    expect(await service.remove(view.id)).toBe(false)
  })
})

describe('credentials', () => {
  it('reads the secret from the keychain', async () => {
    const secret = `kc-${randomUUID()}`
    const view = await saved({}, secret)
    expect(await service.credentialsFor(view.id, { EVENTWATCH_CLIENT_SECRET: 'from-env' })).toEqual({
      clientId: 'client-1',
      clientSecret: secret
    })
  })

  it('falls back to EVENTWATCH_CLIENT_SECRET when the keychain holds none', async () => {
    const view = await saved()
    expect(await service.credentialsFor(view.id, { EVENTWATCH_CLIENT_SECRET: 'from-env' })).toEqual({
      clientId: 'client-1',
      clientSecret: 'from-env'
    })
  })

  it('says what to do when there is no secret anywhere', async () => {
    const view = await saved({ name: 'Fabrikam' })
    const error = await failure(service.credentialsFor(view.id, {}))
    expect(error.kind).toBe('configuration')
    expect(error.message).toBe('no client secret stored for Fabrikam: save one, or set EVENTWATCH_CLIENT_SECRET')
  })
})

describe('testing a saved connection', () => {
  it('uses the keychain’s secret against the service', async () => {
    const sim = await startSimulator({ viewersPerSession: 5, churnSessions: false })
    try {
      const { platformId, tenantId, clientId, clientSecret } = DEMO_CREDENTIALS
      const local = { baseUrl: sim.baseUrl, authUrl: sim.authUrl, platformId, tenantId, clientId }
      const good = await saved({ name: 'Simulator', ...local }, clientSecret)
      // As the app's testConnection request does it: the saved target, the secret from the keychain.
      const test = async (id: string) => testConnection(await service.target(id), () => service.credentialsFor(id, {}))
      expect(await test(good.id)).toMatchObject({ ok: true })
      const none = await saved({ name: 'No secret', ...local })
      const report = await test(none.id)
      expect(report.steps).toEqual([{ step: 'secret', ok: false, message: expect.stringMatching(/no client secret stored for No secret/) }])
    } finally {
      await sim.close()
    }
  })
})

describe('a connection\'s own proxy and CA certificate', () => {
  const pem = (): string => {
    const dirOf = mkdtempSync(join(tmpdir(), 'eventwatch-ca-'))
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dirOf, 'k.pem'), '-out', join(dirOf, 'c.pem'), '-days', '1', '-subj', '/CN=Corp CA'], { stdio: 'ignore' })
    const text = readFileSync(join(dirOf, 'c.pem'), 'utf8')
    rmSync(dirOf, { recursive: true, force: true })
    return text
  }

  it('keeps the proxy password in the keychain only, the URL and CA in SQLite, and gives them to the client', async () => {
    const ca = pem()
    const view = await saved({ proxyUrl: 'http://alice:pa%24%24word@proxy.corp:3128', caCertificate: ca }, 'the-client-secret')
    accounts.add(`${view.id}:proxy`)
    expect(view).toMatchObject({ proxyUrl: 'http://alice@proxy.corp:3128', proxyPasswordStored: true, caCertificate: ca.trim() })
    expect(await keychain.read(`${view.id}:proxy`)).toBe('pa$$word')
    await closeCache()
    expect(readFileSync(file).includes(Buffer.from('pa$$word'))).toBe(false)
    openCache()
    const network = (await service.target(view.id)).network
    expect(network).toMatchObject({ proxyUrl: 'http://alice@proxy.corp:3128', caCertificate: ca.trim() })
    expect(await network?.proxyPassword?.()).toBe('pa$$word')

    // Saved again without a password: the stored one stays; without a proxy user: it goes.
    await service.save(settings({ proxyUrl: 'http://alice@proxy.corp:3128' }), undefined, view.id)
    expect(await keychain.read(`${view.id}:proxy`)).toBe('pa$$word')
    const plain = await service.save(settings({ proxyUrl: 'http://proxy.corp:3128' }), undefined, view.id)
    expect(plain).toMatchObject({ proxyPasswordStored: false, caCertificate: null })
    expect(await keychain.read(`${view.id}:proxy`)).toBeNull()
    expect((await service.target(view.id)).network).toMatchObject({ proxyUrl: 'http://proxy.corp:3128' })
  })

  it('refuses a proxy that is not an http(s) address, and a certificate that does not parse, naming the field', async () => {
    expect(await failure(saved({ proxyUrl: 'socks5://proxy.corp:1080' }, 's'))).toMatchObject({ field: 'proxyUrl', message: 'proxyUrl: must start with http:// or https://' })
    expect(await failure(saved({ proxyUrl: 'http://proxy.corp:3128/path' }, 's'))).toMatchObject({ field: 'proxyUrl' })
    expect(await failure(saved({ caCertificate: 'not a certificate' }, 's'))).toMatchObject({
      field: 'caCertificate',
      message: 'caCertificate: must be a PEM certificate (-----BEGIN CERTIFICATE----- …)'
    })
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'
    const refused = await failure(saved({ caCertificate: broken }, 's'))
    expect(refused).toMatchObject({ field: 'caCertificate' })
    expect(refused.message).toMatch(/^caCertificate: cannot be used: /)
    expect(listConnections(db)).toHaveLength(0)
  })
})
