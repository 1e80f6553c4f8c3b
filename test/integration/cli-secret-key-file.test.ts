// The CLI with EVENTWATCH_SECRET_KEY_FILE (issue 26, docs/secrets.md), as real processes with no
// keychain reachable (no D-Bus session): `connections add` and `webhooks add --sign` keep their
// secrets encrypted in the database, `sync --connection` polls the simulator with them, and a bad
// key file (missing, 31 bytes, mode 0644) or another key is refused in words.
import { randomBytes, randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { homeEnv, simulatorFlags } from '../support/cli'
import { runCli } from '../support/cli-processes'

const secret = `S3cr3t-${randomUUID()}`
const signing = `W3bh00k-${randomUUID()}`
const name = 'Tenant on a key file'
let home: string
let dbFile: string
let sim: RunningSimulator

/** No keychain: no D-Bus session bus to find one on, and the test's own HOME. */
const noKeychain = (): NodeJS.ProcessEnv => ({
  ...homeEnv(home),
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/eventwatch-test-bus',
  EVENTWATCH_CLIENT_SECRET: '',
  EVENTWATCH_CLIENT_SECRET_FILE: ''
})

function keyFile(file: string, bytes: Buffer = randomBytes(32), mode = 0o600): string {
  const path = join(home, file)
  writeFileSync(path, bytes, { mode })
  chmodSync(path, mode)
  return path
}

let key: string

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-keyfile-'))
  dbFile = join(home, 'cache.db')
  key = keyFile('secret.key')
  sim = await startSimulator({
    credentials: { clientId: 'kf-client', clientSecret: secret, platformId: 'p-kf', tenantId: 't-kf' },
    liveSessions: 2,
    endedSessions: 1,
    viewersPerSession: 20
  })
})

afterAll(async () => {
  await sim?.close()
  rmSync(home, { recursive: true, force: true })
})

/** How many sealed secrets the database holds (read after the command has ended). */
async function sealedCount(): Promise<number> {
  const store = openSqliteStore(dbFile)
  try {
    return await store.read.secrets.count('eventwatch')
  } finally {
    await store.close()
  }
}

describe('the CLI with EVENTWATCH_SECRET_KEY_FILE', () => {
  it('without it and without a keychain, connections add stores nothing', async () => {
    const add = await runCli(['connections', 'add', name, ...simulatorFlags(sim), '--db', dbFile], { ...noKeychain(), EVENTWATCH_CLIENT_SECRET: secret })
    expect(add.code).toBe(2)
    expect(add.stderr).toMatch(/keychain/)
    expect(add.stderr).not.toContain(secret)
  }, 60_000)

  it('connections add keeps the client secret encrypted in the database, and sync polls with it', async () => {
    const add = await runCli(['connections', 'add', name, ...simulatorFlags(sim), '--db', dbFile], {
      ...noKeychain(),
      EVENTWATCH_CLIENT_SECRET: secret,
      EVENTWATCH_SECRET_KEY_FILE: key
    })
    expect(add.code, add.stderr).toBe(0)
    expect(add.stdout).toContain('(secret in the database, encrypted)')
    expect(await sealedCount()).toBe(1)

    const list = await runCli(['connections', 'list', '--json', '--db', dbFile], { ...noKeychain(), EVENTWATCH_SECRET_KEY_FILE: key })
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ name, secretStored: true })])

    // No secret in the environment: the one in the database is the only one there is.
    const sync = await runCli(['sync', '--once', '--connection', name, '--db', dbFile], { ...noKeychain(), EVENTWATCH_SECRET_KEY_FILE: key })
    expect(sync.code, sync.stderr).toBe(0)
    expect(sim.issuedTokens().length).toBeGreaterThan(0)
  }, 90_000)

  it('webhooks add --sign keeps its signing secret there too', async () => {
    const add = await runCli(['webhooks', 'add', 'Pager', '--url', 'http://127.0.0.1:9/hook', '--sign', '--db', dbFile], {
      ...noKeychain(),
      EVENTWATCH_WEBHOOK_SECRET: signing,
      EVENTWATCH_SECRET_KEY_FILE: key
    })
    expect(add.code, add.stderr).toBe(0)
    expect(add.stdout).toContain('secret in the database, encrypted')
    expect(await sealedCount()).toBe(2)
  }, 60_000)

  it('puts neither secret in the database file or its -wal', () => {
    for (const file of [dbFile, `${dbFile}-wal`].filter(existsSync)) {
      const bytes = readFileSync(file)
      for (const value of [secret, signing]) {
        expect(bytes.includes(Buffer.from(value, 'utf8')), file).toBe(false)
        expect(bytes.includes(Buffer.from(value, 'utf16le')), file).toBe(false)
      }
    }
  })

  it('another key says which secret it cannot decrypt, and never that there is none', async () => {
    const sync = await runCli(['sync', '--once', '--connection', name, '--db', dbFile], {
      ...noKeychain(),
      EVENTWATCH_SECRET_KEY_FILE: keyFile('other.key')
    })
    expect(sync.code).not.toBe(0)
    expect(sync.stderr).toMatch(/the secret "[0-9a-f-]+" of eventwatch cannot be decrypted: it was encrypted under another key/)
    expect(sync.stderr).not.toMatch(/no client secret/)
  }, 60_000)

  it('refuses a key file of 31 bytes, one open to others, and a missing one, saying why (exit 2)', async () => {
    const cases: [string, RegExp][] = [
      [keyFile('short.key', randomBytes(31)), /the key file holds 31 bytes; it must hold exactly 32 random bytes/],
      [keyFile('open.key', randomBytes(32), 0o644), /the key file is open to other users \(mode 0644\), so it is refused, as ssh refuses such a key; run: chmod 600 /],
      [join(home, 'missing.key'), /the key file does not exist; make one with: openssl rand -out /]
    ]
    for (const [path, reason] of cases) {
      const run = await runCli(['connections', 'list', '--db', dbFile], { ...noKeychain(), EVENTWATCH_SECRET_KEY_FILE: path })
      expect(run.code, run.stderr).toBe(2)
      expect(run.stderr).toMatch(reason)
      expect(run.stderr.trim().split('\n')).toHaveLength(1)
    }
  }, 60_000)

  it('connections remove takes its secrets out of the database', async () => {
    const env = { ...noKeychain(), EVENTWATCH_SECRET_KEY_FILE: key }
    expect((await runCli(['connections', 'remove', name, '--db', dbFile], env)).code).toBe(0)
    expect((await runCli(['webhooks', 'remove', 'Pager', '--db', dbFile], env)).code).toBe(0)
    expect(await sealedCount()).toBe(0)
  }, 60_000)
})
