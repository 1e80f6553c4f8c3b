// The client secret lives in the OS keychain only. Drive every path that handles it (save, sync
// with a saved connection, sync with EVENTWATCH_CLIENT_SECRET, a refused secret, the browser
// host, every export, a diagnostic report of a running sync) as real processes, then look for
// it — and for every access token the service issued — everywhere it must not be. (The
// renderer's side is test/e2e/secret-hygiene.spec.ts.)
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, ROOT, simulatorFlags } from '../support/cli'

const secret = `S3cr3t-${randomUUID()}`
const name = `Leak check ${randomUUID().slice(0, 8)}`
let home: string
let dbFile: string
let sim: RunningSimulator
const transcript: string[] = []
const viewerIps: string[] = []

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

interface WhileRunning {
  /** Called once the output (stdout and stderr) matches `ready`, with the match's first group. */
  then: (found: string, child: ChildProcess) => Promise<void>
  ready?: RegExp
}

/** Runs the CLI (after `nodeFlags`); with `whileRunning`, calls it once ready, then stops the process. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}, whileRunning?: WhileRunning, nodeFlags: string[] = []): Promise<Run> {
  const childEnv = cliEnv(env)
  if (!('EVENTWATCH_CLIENT_SECRET' in env)) delete childEnv.EVENTWATCH_CLIENT_SECRET
  const child = spawn(process.execPath, [...nodeFlags, CLI_BIN, ...args], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const run: Run = { code: null, stdout: '', stderr: '' }
  return new Promise((done, reject) => {
    let visited = false
    const watch = (): void => {
      const found = (whileRunning?.ready ?? /serving on (http:\S+)/).exec(run.stdout + run.stderr)?.[1]
      if (!whileRunning || found === undefined || visited) return
      visited = true
      whileRunning.then(found, child).then(
        () => child.kill('SIGTERM'),
        (error: unknown) => {
          child.kill('SIGTERM')
          reject(error)
        }
      )
    }
    child.stdout.on('data', (chunk: Buffer) => {
      run.stdout += chunk.toString()
      watch()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      run.stderr += chunk.toString()
      watch()
    })
    child.on('error', reject)
    child.on('close', (code) => {
      run.code = code
      transcript.push(`$ eventwatch ${args.join(' ')}\n${run.stdout}${run.stderr}`)
      done(run)
    })
  })
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-leak-'))
  dbFile = join(home, 'cache.db')
  sim = await startSimulator({
    credentials: { clientId: 'leak-client', clientSecret: secret, platformId: 'p-leak', tenantId: 't-leak' },
    liveSessions: 3,
    endedSessions: 2,
    viewersPerSession: 50
  })
})

afterAll(async () => {
  await cli(['connections', 'remove', name, '--db', dbFile]).catch(() => undefined)
  await sim?.close()
  rmSync(home, { recursive: true, force: true })
})

describe('the client secret', () => {
  it('is saved to the keychain and a sync with the saved connection works', async () => {
    const add = await cli(['connections', 'add', name, ...simulatorFlags(sim), '--db', dbFile], { EVENTWATCH_CLIENT_SECRET: secret })
    expect(add.code, add.stderr).toBe(0)
    const list = await cli(['connections', 'list', '--json', '--db', dbFile])
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ name, secretStored: true })])
    const sync = await cli(['sync', '--once', '--connection', name, '--db', dbFile])
    expect(sync.code, sync.stderr).toBe(0)
  }, 60_000)

  it('works from EVENTWATCH_CLIENT_SECRET for an unsaved connection', async () => {
    const sync = await cli(['sync', '--once', ...simulatorFlags(sim), '--db', dbFile], { EVENTWATCH_CLIENT_SECRET: secret })
    expect(sync.code, sync.stderr).toBe(0)
  }, 60_000)

  it('is not echoed when the service refuses a wrong one', async () => {
    const wrong = `${secret}-wrong`
    const sync = await cli(['sync', '--once', ...simulatorFlags(sim), '--db', dbFile], { EVENTWATCH_CLIENT_SECRET: wrong })
    expect(sync.code).toBe(1)
    expect(sync.stderr).toMatch(/^eventwatch: authentication failed: /m)
    expect(sync.stderr).not.toContain(wrong)
  }, 60_000)

  it('never reaches the browser host API', async () => {
    const answers: string[] = []
    const serve = await cli(['serve', '--port', '0', '--connection', name, '--db', dbFile], {}, { then: async (url) => {
      for (const request of ['listConnections', 'getStatus', 'listLiveSessions', 'listDiagnostics']) {
        const response = await fetch(new URL(`/api/request/${request}`, url), {
          method: 'POST',
          headers: { Authorization: `Bearer ${new URL(url).searchParams.get('token')}` },
          body: '{}'
        })
        answers.push(await response.text())
      }
    } })
    expect(serve.stdout).toContain('serving on')
    const connections = JSON.parse(answers[0] ?? '{}') as { ok: boolean; value: { name: string; secretStored: boolean }[] }
    expect(connections.ok).toBe(true)
    expect(connections.value).toEqual(expect.arrayContaining([expect.objectContaining({ name, secretStored: true })]))
    transcript.push(...answers)
    expect(answers.join('\n')).not.toContain(secret)
  }, 60_000)

  it('is in no export of the cached data', async () => {
    const sessions = await cli(['export', 'sessions', '--db', dbFile])
    expect(sessions.code, sessions.stderr).toBe(0)
    const first = (JSON.parse(sessions.stdout) as { eventSessionId: string }[])[0]
    expect(first).toBeDefined()
    const session = ['--session', first?.eventSessionId ?? '', '--connection', name]
    for (const args of [
      ['sessions', '--format', 'csv'],
      ['viewers', ...session],
      ['viewers', ...session, '--format', 'csv'],
      ['snapshots', ...session, '--format', 'csv'],
      ['alerts'],
      ['alerts', '--format', 'csv']
    ]) {
      const run = await cli(['export', ...args, '--db', dbFile])
      expect(run.code, `export ${args.join(' ')}: ${run.stderr}`).toBe(0)
      expect(run.stdout.length).toBeGreaterThan(0)
    }
    // Every export went into the transcript, which the last test searches.
    viewerIps.push(...transcript.flatMap((text) => [...text.matchAll(/"publicIp":\s*"([^"]+)"/g)].map((m) => m[1] ?? '')))
  }, 90_000)

  it('is not in a diagnostic report of a running sync, even when given in the environment', async () => {
    // A Node diagnostic report (node --report-on-signal, --report-on-fatalerror, …) lists every
    // environment variable: the CLI must have taken the secret out of its environment.
    const reports = join(home, 'reports')
    mkdirSync(reports)
    const reportFlags = ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${reports}`]
    const sync = await cli(['sync', ...simulatorFlags(sim), '--db', dbFile, '--interval', '1'], { EVENTWATCH_CLIENT_SECRET: secret }, {
      ready: /(\d+ sessions, \d+ live)/,
      then: async (_found, child) => {
        child.kill('SIGUSR2')
        const deadline = Date.now() + 20_000
        while (readdirSync(reports).filter((f) => f.endsWith('.json')).length === 0) {
          if (Date.now() > deadline) throw new Error('no diagnostic report was written')
          await new Promise((r) => setTimeout(r, 50))
        }
      }
    }, reportFlags)
    expect(sync.code, sync.stderr).toBe(0)
    const [file] = readdirSync(reports).filter((f) => f.endsWith('.json'))
    const text = readFileSync(join(reports, file ?? ''), 'utf8')
    const report = JSON.parse(text) as { header: { commandLine: string[] }; environmentVariables: Record<string, string> }
    // The real report of that very run, with its environment.
    expect(report.header.commandLine).toContain(dbFile)
    expect(report.environmentVariables['HOME']).toBe(process.env['HOME'])
    expect(Object.keys(report.environmentVariables)).not.toContain('EVENTWATCH_CLIENT_SECRET')
    expect(text).not.toContain(secret)
    for (const token of sim.issuedTokens()) expect(text, 'an access token in the report').not.toContain(token)
  }, 60_000)

  it('appears in no cache file and no output, and neither do the access tokens', () => {
    const tokens = sim.issuedTokens()
    expect(tokens.length).toBeGreaterThan(0)
    for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`].filter(existsSync)) {
      const bytes = readFileSync(file)
      for (const value of [secret, ...tokens]) {
        expect(bytes.includes(Buffer.from(value, 'utf8')), file).toBe(false)
        expect(bytes.includes(Buffer.from(value, 'utf16le')), file).toBe(false)
      }
    }
    expect(transcript.length).toBeGreaterThanOrEqual(13)
    const everything = transcript.join('\n')
    expect(everything).not.toContain(secret)
    for (const token of tokens) expect(everything, 'an access token in the output').not.toContain(token)
  })
})

describe("the viewers' IP addresses", () => {
  it('are shown in exports but never sent to the service', () => {
    expect(viewerIps.length, 'the exports carried IP addresses').toBeGreaterThan(0)
    const sent = JSON.stringify(sim.stats.log)
    expect(sim.stats.log.length).toBeGreaterThan(10)
    for (const ip of new Set(viewerIps)) expect(sent, `${ip} in a request to the service`).not.toContain(ip)
  })
})
