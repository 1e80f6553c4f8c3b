// The CLI on a SQLite cache with EVENTWATCH_SECRET_KEY_FILE set (issue 26, docs/secrets.md), as real
// processes: the key file is for a postgres:// database only, so `connections add`, `webhooks add
// --sign`, `sync` and `serve` keep and read their secrets in the OS keychain (a Secret Service: `npm test`
// starts one; by hand, run under /work/notes/kr.sh or dbus-run-session), say so once on stderr, and
// never read the key file. No secret reaches the cache file.
import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { homeEnv, simulatorFlags } from '../support/cli'
import { runCli, startCli } from '../support/cli-processes'
import { writeKeyFile } from '../support/secret-key-files'

const secret = `S3cr3t-${randomUUID()}`
const signing = `W3bh00k-${randomUUID()}`
const name = `Tenant on SQLite ${randomUUID().slice(0, 8)}`
const UNUSED =
  'EVENTWATCH_SECRET_KEY_FILE is used only with a postgres:// database: with a SQLite cache the OS keychain keeps the secrets, and the key file is not read.'
let home: string
let dbFile: string
let sim: RunningSimulator
/** Each run with a key file the CLI must not read: 31 bytes, open to others. */
let env: () => NodeJS.ProcessEnv
let connectionId = ''
let webhookId = ''

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-keyfile-sqlite-'))
  dbFile = join(home, 'cache.db')
  const unreadable = writeKeyFile(home, 'bad.key', randomBytes(31), 0o644)
  env = () => ({ ...homeEnv(home), EVENTWATCH_SECRET_KEY_FILE: unreadable, EVENTWATCH_CLIENT_SECRET: '', EVENTWATCH_CLIENT_SECRET_FILE: '' })
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

/** The note, said once on stderr, on a line of its own. */
function saidOnce(stderr: string): void {
  expect(stderr.split('\n').filter((line) => line.includes('EVENTWATCH_SECRET_KEY_FILE'))).toEqual([UNUSED])
}

describe('the CLI on a SQLite cache with EVENTWATCH_SECRET_KEY_FILE set', () => {
  it('connections add keeps the client secret in the OS keychain, and says once that the key file is unused', async () => {
    const add = await runCli(['connections', 'add', name, ...simulatorFlags(sim), '--db', dbFile], { ...env(), EVENTWATCH_CLIENT_SECRET: secret })
    expect(add.code, add.stderr).toBe(0)
    expect(add.stdout).toContain('(secret in the OS keychain)')
    saidOnce(add.stderr)
    const list = await runCli(['connections', 'list', '--json', '--db', dbFile], env())
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ name, secretStored: true })])
    connectionId = (JSON.parse(list.stdout) as { id: string }[])[0]?.id ?? ''
    expect(await osKeychain().read(connectionId)).toBe(secret)
  }, 60_000)

  it('sync polls with the secret from the keychain (none in the environment)', async () => {
    const before = sim.issuedTokens().length
    const sync = await runCli(['sync', '--once', '--connection', name, '--db', dbFile], env())
    expect(sync.code, sync.stderr).toBe(0)
    saidOnce(sync.stderr)
    expect(sim.issuedTokens().length).toBeGreaterThan(before)
  }, 90_000)

  it('serve polls with the secret from the keychain, and says so once', async () => {
    const before = sim.issuedTokens().length
    const serve = startCli(['serve', '--port', '0', '--db', dbFile, '--interval', '1', '--connection', name], env())
    try {
      await serve.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+/, 120_000)
      await expect.poll(() => sim.issuedTokens().length, { timeout: 30_000 }).toBeGreaterThan(before)
    } finally {
      await serve.stop()
    }
    saidOnce(serve.output().stderr)
  }, 180_000)

  it('webhooks add --sign keeps its signing secret in the keychain too', async () => {
    const add = await runCli(['webhooks', 'add', 'Pager', '--url', 'http://127.0.0.1:9/hook', '--sign', '--db', dbFile], {
      ...env(),
      EVENTWATCH_WEBHOOK_SECRET: signing
    })
    expect(add.code, add.stderr).toBe(0)
    expect(add.stdout).toContain('secret in the OS keychain')
    saidOnce(add.stderr)
    const list = await runCli(['webhooks', 'list', '--json', '--db', dbFile], env())
    webhookId = (JSON.parse(list.stdout) as { id: string }[])[0]?.id ?? ''
    expect(await osKeychain().read(`webhook:${webhookId}`)).toBe(signing)
  }, 60_000)

  it('puts neither secret in the cache file or its -wal', () => {
    for (const file of [dbFile, `${dbFile}-wal`].filter(existsSync)) {
      const bytes = readFileSync(file)
      for (const value of [secret, signing]) {
        expect(bytes.includes(Buffer.from(value, 'utf8')), file).toBe(false)
        expect(bytes.includes(Buffer.from(value, 'utf16le')), file).toBe(false)
      }
    }
  })

  it('connections remove and webhooks remove take their secrets out of the keychain', async () => {
    expect((await runCli(['connections', 'remove', name, '--db', dbFile], env())).code).toBe(0)
    expect((await runCli(['webhooks', 'remove', 'Pager', '--db', dbFile], env())).code).toBe(0)
    expect(await osKeychain().read(connectionId)).toBeNull()
    expect(await osKeychain().read(`webhook:${webhookId}`)).toBeNull()
  }, 60_000)
})
