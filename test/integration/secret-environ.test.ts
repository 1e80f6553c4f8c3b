// Secrets out of sight (issue 13): the client secret given in EVENTWATCH_CLIENT_SECRET is gone
// from /proc/<pid>/environ of a running `eventwatch sync` while the sync goes on renewing tokens
// with it; EVENTWATCH_CLIENT_SECRET_FILE keeps it out of the environment altogether; and an error
// body that echoes the secret and the access token reaches neither stderr nor the diagnostics.
import Database from 'better-sqlite3'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_CREDENTIALS, startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'

const secret = `Env-S3cret-${randomUUID()}`
let home: string
let sim: RunningSimulator

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-environ-'))
  // Tokens live 4 s: a running sync renews them (from the secret it keeps) every 2 s.
  sim = await startSimulator({ liveSessions: 2, endedSessions: 0, viewersPerSession: 50, tokenLifetimeSeconds: 4, credentials: { ...DEMO_CREDENTIALS, clientSecret: secret } })
})
afterAll(async () => {
  await sim.close()
  rmSync(home, { recursive: true, force: true })
})

function start(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; done: Promise<number | null> } {
  const childEnv = cliEnv({ ...homeEnv(home), ...env })
  if (!('EVENTWATCH_CLIENT_SECRET' in env)) delete childEnv.EVENTWATCH_CLIENT_SECRET
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()))
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return { child, output: () => output, done }
}

const until = async (what: () => boolean, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.runIf(process.platform === 'linux')('a running sync', () => {
  it('keeps no trace of EVENTWATCH_CLIENT_SECRET in /proc/<pid>/environ, and goes on renewing tokens with it', async () => {
    const db = join(home, 'env.db')
    const run = start(['sync', '--interval', '1', '--db', db, ...simulatorFlags(sim)], { EVENTWATCH_CLIENT_SECRET: secret })
    try {
      await until(() => (run.output().match(/2 sessions/g) ?? []).length >= 1)
      const tokensAtFirstPass = sim.stats.tokensIssued
      const environ = readFileSync(`/proc/${run.child.pid}/environ`, 'latin1')
      expect(environ).toContain('HOME=') // the block is readable, and it is this process's
      expect(environ).not.toContain(secret)
      // Passes go on, with tokens renewed from the secret it kept.
      await until(() => sim.stats.tokensIssued >= tokensAtFirstPass + 2)
      expect(readFileSync(`/proc/${run.child.pid}/environ`, 'latin1')).not.toContain(secret)
    } finally {
      run.child.kill('SIGTERM')
      await run.done
    }
    expect(run.output()).not.toContain(secret)
  }, 60_000)

  it('takes the secret from EVENTWATCH_CLIENT_SECRET_FILE, never from the environment', async () => {
    const file = join(home, 'secret.txt')
    writeFileSync(file, `${secret}\n`, { mode: 0o600 })
    const run = start(['sync', '--once', '--db', join(home, 'file.db'), ...simulatorFlags(sim)], { EVENTWATCH_CLIENT_SECRET_FILE: file })
    expect(await run.done).toBe(0)
    expect(run.output()).toMatch(/2 sessions, 2 live/)
  }, 60_000)

  it('says in one line when EVENTWATCH_CLIENT_SECRET_FILE cannot be read', async () => {
    const run = start(['sync', '--once', '--db', join(home, 'nofile.db'), ...simulatorFlags(sim)], { EVENTWATCH_CLIENT_SECRET_FILE: join(home, 'missing.txt') })
    expect(await run.done).toBe(1)
    expect(run.output().trim()).toMatch(/^eventwatch: EVENTWATCH_CLIENT_SECRET_FILE: cannot read .*missing\.txt \(ENOENT\)$/)
  }, 60_000)
})

describe('an error body that echoes the secret and the access token', () => {
  it('reaches neither stderr nor the diagnostics table: both say [redacted]', async () => {
    const db = join(home, 'echo.db')
    sim.faults.echoSecrets(1000)
    let run
    try {
      run = start(['sync', '--once', '--db', db, ...simulatorFlags(sim)], { EVENTWATCH_CLIENT_SECRET: secret })
      expect(await run.done).toBe(1)
    } finally {
      sim.faults.reset()
    }
    const output = run.output()
    expect(output).toContain('[redacted]')
    expect(output).not.toContain(secret)
    for (const token of sim.issuedTokens()) expect(output).not.toContain(token)
    expect(existsSync(db)).toBe(true)
    const reader = new Database(db, { readonly: true })
    const messages = (reader.prepare('SELECT message FROM diagnostics').all() as { message: string }[]).map((r) => r.message)
    const runs = (reader.prepare('SELECT error FROM sync_runs').all() as { error: string | null }[]).map((r) => r.error ?? '')
    reader.close()
    expect(messages.length).toBeGreaterThan(0)
    expect(messages.some((m) => m.includes('[redacted]'))).toBe(true)
    for (const text of [...messages, ...runs]) {
      expect(text).not.toContain(secret)
      for (const token of sim.issuedTokens()) expect(text).not.toContain(token)
    }
  }, 60_000)
})
