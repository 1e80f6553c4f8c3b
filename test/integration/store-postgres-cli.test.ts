// Every command that takes --db, against a postgres:// URL (issue 26), as real child processes:
// the same commands as on a SQLite file, through the same core; `serve` answering the app API over
// loopback; and the refusals in one sentence naming the database without its password — a SQLite
// only command (backup), a server nothing listens on, a refused password, a newer schema.
import { readFileSync, writeFileSync } from 'node:fs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { homeEnv } from '../support/cli'
import { runCli, startCli, type CliResult } from '../support/cli-processes'
import { addUserByCli, freePort } from '../support/cli-team'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-pg-cli-')
const NO_STACK = /\n\s+at .+[:(]/

/** One line on stderr, exit code 2 (the user's to fix), no stack trace, no password. */
function refusedInOneLine(result: CliResult, words: RegExp): void {
  expect(result.code, result.stderr).toBe(2)
  expect(result.stderr.trim().split('\n')).toHaveLength(1)
  expect(result.stderr).toMatch(words)
  expect(result.stderr).not.toMatch(NO_STACK)
  expect(result.stdout + result.stderr).not.toContain('s3cret')
}

describe('the CLI on a postgres:// URL', () => {
  let database: TestDatabase
  let env: NodeJS.ProcessEnv
  const run = (args: string[]): Promise<CliResult> => runCli([...args, '--db', database.url], env)
  const ok = async (args: string[]): Promise<string> => {
    const result = await run(args)
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0)
    return result.stdout
  }

  beforeAll(async () => {
    database = await freshDatabase()
    env = homeEnv(newDir())
  })
  afterAll(() => database.drop())

  it('users, audit, sites, maintenance, webhooks, connections and export each answer from the database', async () => {
    const token = await addUserByCli(database.url, 'alice', env)
    expect(token).toMatch(/^ewu_/)
    expect(await ok(['users', 'list'])).toMatch(/alice\s+operator/)
    expect(await ok(['sites', 'set', '12', 'Head office'])).toBe('site 12 is named "Head office"\n')
    expect(await ok(['sites', 'list'])).toBe('12\tHead office\n')
    expect(await ok(['maintenance', 'list'])).toMatch(/^No maintenance window/)
    expect(await ok(['webhooks', 'list'])).toMatch(/^No webhook/)
    expect(JSON.parse(await ok(['connections', 'list', '--json']))).toEqual([])
    expect(JSON.parse(await ok(['export', 'sessions']))).toEqual([])
    expect(JSON.parse(await ok(['export', 'alerts']))).toEqual([])
    expect(await ok(['export', 'alerts', '--format', 'csv'])).toMatch(/^alertId,rule,/)
    // Every change above is in the team's audit log, in the same database.
    const audit = await ok(['audit', '--json'])
    expect((JSON.parse(audit) as { action: string }[]).map((e) => e.action)).toEqual(expect.arrayContaining([expect.stringMatching(/user/i), expect.stringMatching(/site/i)]))
    // What the CLI wrote, another server reads.
    const store = await openPgStore(database.url)
    try {
      expect((await store.read.team.users.list()).map((u) => u.name)).toEqual(['alice'])
      expect(await store.read.sites.names()).toEqual([{ code: 12, name: 'Head office' }])
    } finally {
      await store.close()
    }
  }, 120_000)

  it('serve answers the app API over loopback from the database, and /readyz says its schema', async () => {
    const dir = newDir()
    const serve = startCli(['serve', '--port', '0', '--db', database.url, '--interval', '3600'], homeEnv(dir))
    try {
      const [, origin, token] = await serve.waitFor(/serving on (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/, 120_000)
      const ready = await fetch(`${origin}/readyz`)
      expect([ready.status, await ready.text()]).toEqual([200, expect.stringMatching(/^ready: schema \d+\n$/)])
      const response = await fetch(`${origin}/api/request/listSiteNames`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{}'
      })
      expect(await response.json()).toEqual({ ok: true, value: [{ code: 12, name: 'Head office' }] })
    } finally {
      await serve.stop()
    }
    expect(serve.output().stdout + serve.output().stderr).not.toMatch(NO_STACK)
  }, 180_000)

  it('refuses backup on a URL, naming pg_dump', async () => {
    refusedInOneLine(await run(['backup', `${newDir()}/copy.db`]), /eventwatch backup works on a SQLite cache file, not on postgres:\/\/.+ pg_dump/)
  })
})

describe('a database the CLI cannot use', () => {
  it('names a server nothing listens on, without the password', async () => {
    const port = await freePort()
    const url = `postgres://eventwatch:s3cret@127.0.0.1:${port}/eventwatch`
    const result = await runCli(['users', 'list', '--db', url], homeEnv(newDir()))
    refusedInOneLine(result, new RegExp(`cannot reach the PostgreSQL server of postgres://eventwatch:\\*\\*\\*@127\\.0\\.0\\.1:${port}/eventwatch \\(ECONNREFUSED\\)`))
  })

  it('names a refused password, without it', async () => {
    // A role that must give its password (the test cluster trusts everyone else).
    const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') })
    await admin.connect()
    try {
      await admin.query("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ew_password') THEN CREATE ROLE ew_password LOGIN PASSWORD 'right'; END IF; END $$")
      const hba = (await admin.query<{ hba_file: string }>('SHOW hba_file')).rows[0]!.hba_file
      const rules = readFileSync(hba, 'utf8')
      if (!rules.startsWith('host all ew_password')) writeFileSync(hba, `host all ew_password 127.0.0.1/32 scram-sha-256\n${rules}`)
      await admin.query('SELECT pg_reload_conf()')
    } finally {
      await admin.end()
    }
    const url = new URL(inject('postgresAdminUrl'))
    url.username = 'ew_password'
    url.password = 's3cret'
    const result = await runCli(['users', 'list', '--db', url.toString()], homeEnv(newDir()))
    refusedInOneLine(result, /PostgreSQL refused the credentials for postgres:\/\/ew_password:\*\*\*@.+ \(28P01\)/)
  })

  it('refuses a database a newer Eventwatch wrote, and leaves it unchanged', async () => {
    const database = await freshDatabase()
    try {
      await (await openPgStore(database.url)).close()
      const client = new pg.Client({ connectionString: database.url })
      await client.connect()
      try {
        await client.query("INSERT INTO schema_migrations (version, name) VALUES (999, 'from a newer build')")
        const result = await runCli(['users', 'list', '--db', database.url], homeEnv(newDir()))
        refusedInOneLine(result, /was written by a newer Eventwatch \(schema 999, this build knows \d+\)/)
        expect((await client.query('SELECT max(version) AS v FROM schema_migrations')).rows[0]).toEqual({ v: 999 })
      } finally {
        await client.end()
      }
    } finally {
      await database.drop()
    }
  })
})
