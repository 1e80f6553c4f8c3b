// No keychain: a child process whose D-Bus address leads nowhere, so keytar fails for real.
// Saving a secret must then fail with a reason and a fix, and store nothing — no row, no
// clear-text fallback; listing and the EVENTWATCH_CLIENT_SECRET fallback must still work.
import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import keytar from 'keytar'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/main/core/store/db'

const ROOT = resolve(import.meta.dirname, '../..')
const SERVICE = `eventwatch-test-${randomUUID()}`
const SECRET = `no-keychain-${randomUUID()}`
const src = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, 'src/main/core', path)).href)

// Runs in the child: every step's outcome as JSON on stdout.
const CHILD = `
import { ConnectionService } from ${src('connections/service.ts')}
import { osKeychain } from ${src('secrets/keychain.ts')}
import { openSqliteStore } from ${src('store/sqlite/sqlite-store.ts')}

const [file, service, secret] = process.argv.slice(2)
const store = openSqliteStore(file)
const connections = new ConnectionService(store, osKeychain(service))
const settings = (name) => ({
  name, baseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com',
  platformId: 'p', tenantId: 't', clientId: 'client-1'
})
const outcome = (promise) => promise.then(
  (value) => ({ ok: true, value }),
  (error) => ({ ok: false, kind: error.kind, message: error.message })
)
const out = {}
out.saveNew = await outcome(connections.save(settings('With secret'), secret))
out.listAfterFailedSave = await connections.list()
out.saveWithoutSecret = await outcome(connections.save(settings('Headless')))
const id = out.saveWithoutSecret.value?.id
out.updateWithSecret = await outcome(connections.save(settings('Renamed'), secret, id))
out.list = await outcome(connections.list())
out.credentialsNoEnv = await outcome(connections.credentialsFor(id, {}))
out.credentialsEnv = await outcome(connections.credentialsFor(id, { EVENTWATCH_CLIENT_SECRET: 'from-env' }))
out.remove = await outcome(connections.remove(id))
await store.close()
process.stdout.write(JSON.stringify(out))
`

interface Outcome {
  ok: boolean
  value?: unknown
  kind?: string
  message?: string
}

let dir: string
let file: string
let out: Record<string, Outcome> & { listAfterFailedSave: unknown[] }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-nokeychain-'))
  file = join(dir, 'cache.db')
  const script = join(dir, 'child.mts')
  writeFileSync(script, CHILD)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    HOME: dir,
    XDG_RUNTIME_DIR: dir
  }
  delete env.DISPLAY
  delete env.EVENTWATCH_CLIENT_SECRET
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, file, SERVICE, SECRET], {
    cwd: ROOT,
    env,
    timeout: 30_000
  })
  out = JSON.parse(stdout) as typeof out
}, 40_000)

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  // Should be nothing; the real keychain of this test run is checked and cleaned all the same.
  for (const { account } of await keytar.findCredentials(SERVICE).catch(() => [])) {
    await keytar.deletePassword(SERVICE, account).catch(() => undefined)
  }
})

describe('saving when no keychain is available', () => {
  it('fails with a message that says so and how to fix it, never showing the secret', () => {
    const { saveNew } = out
    expect(saveNew?.ok).toBe(false)
    expect(saveNew?.kind).toBe('configuration')
    expect(saveNew?.message).toMatch(/OS keychain is not available/)
    expect(saveNew?.message).toMatch(/Could not connect/)
    expect(saveNew?.message).toMatch(/gnome-keyring/)
    expect(saveNew?.message).toMatch(/EVENTWATCH_CLIENT_SECRET/)
    expect(saveNew?.message).not.toContain(SECRET)
    expect(out.listAfterFailedSave).toEqual([])
  })

  it('stores nothing: no row, no secret in the SQLite files, none in any keychain', async () => {
    const db = openDatabase(file)
    const names = db.prepare('SELECT name FROM connections ORDER BY name').all() as { name: string }[]
    db.close()
    // Only the connection saved without a secret, and it keeps its old name: the update with
    // a secret failed before touching the row.
    expect(names).toEqual([{ name: 'Headless' }])
    for (const path of [file, `${file}-wal`]) {
      if (existsSync(path)) expect(readFileSync(path).includes(SECRET)).toBe(false)
    }
    expect(out.updateWithSecret?.ok).toBe(false)
    expect(out.updateWithSecret?.message).toMatch(/OS keychain is not available/)
    expect(await keytar.findCredentials(SERVICE)).toEqual([])
  })

  it('still lists connections, with secretStored false', () => {
    expect(out.saveWithoutSecret?.ok).toBe(true)
    expect(out.list?.ok).toBe(true)
    expect(out.list?.value).toEqual([expect.objectContaining({ name: 'Headless', secretStored: false })])
  })

  it('takes the secret from EVENTWATCH_CLIENT_SECRET for headless use', () => {
    expect(out.credentialsEnv).toEqual({ ok: true, value: { clientId: 'client-1', clientSecret: 'from-env' } })
    expect(out.credentialsNoEnv?.ok).toBe(false)
    expect(out.credentialsNoEnv?.kind).toBe('configuration')
    expect(out.credentialsNoEnv?.message).toMatch(/OS keychain is not available.*EVENTWATCH_CLIENT_SECRET/)
  })

  it('refuses to delete a connection whose keychain entry it cannot remove', () => {
    expect(out.remove?.ok).toBe(false)
    expect(out.remove?.message).toMatch(/OS keychain is not available/)
  })
})
