// The client secret lives in the OS keychain only. Drive every path that handles it (save, sync
// with a saved connection, sync with EVENTWATCH_CLIENT_SECRET, a refused secret, the browser
// host) as real processes, then look for it everywhere it must not be.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'

const root = resolve(import.meta.dirname, '../..')
const secret = `S3cr3t-${randomUUID()}`
const name = `Leak check ${randomUUID().slice(0, 8)}`
let home: string
let dbFile: string
let sim: RunningSimulator
const transcript: string[] = []

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the CLI; with `whileRunning`, calls it once stdout has a URL, then stops the process. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}, whileRunning?: (url: string) => Promise<void>): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, EVENTWATCH_DB: '', ...env }
  delete childEnv.NODE_OPTIONS
  if (!('EVENTWATCH_CLIENT_SECRET' in env)) delete childEnv.EVENTWATCH_CLIENT_SECRET
  const child = spawn(process.execPath, [join(root, 'bin', 'eventwatch.js'), ...args], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const run: Run = { code: null, stdout: '', stderr: '' }
  return new Promise((done, reject) => {
    let visited = false
    child.stdout.on('data', (chunk: Buffer) => {
      run.stdout += chunk.toString()
      const url = /serving on (http:\S+)/.exec(run.stdout)?.[1]
      if (whileRunning && url && !visited) {
        visited = true
        whileRunning(url).then(
          () => child.kill('SIGTERM'),
          (error: unknown) => {
            child.kill('SIGTERM')
            reject(error)
          }
        )
      }
    })
    child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      run.code = code
      transcript.push(`$ eventwatch ${args.join(' ')}\n${run.stdout}${run.stderr}`)
      done(run)
    })
  })
}

const simFlags = (): string[] => [
  '--base-url', sim.baseUrl, '--auth-url', sim.authUrl,
  '--platform-id', sim.credentials.platformId, '--tenant-id', sim.credentials.tenantId,
  '--client-id', sim.credentials.clientId
]

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
    const add = await cli(['connections', 'add', name, ...simFlags(), '--db', dbFile], { EVENTWATCH_CLIENT_SECRET: secret })
    expect(add.code, add.stderr).toBe(0)
    const list = await cli(['connections', 'list', '--json', '--db', dbFile])
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ name, secretStored: true })])
    const sync = await cli(['sync', '--once', '--connection', name, '--db', dbFile])
    expect(sync.code, sync.stderr).toBe(0)
  }, 60_000)

  it('works from EVENTWATCH_CLIENT_SECRET for an unsaved connection', async () => {
    const sync = await cli(['sync', '--once', ...simFlags(), '--db', dbFile], { EVENTWATCH_CLIENT_SECRET: secret })
    expect(sync.code, sync.stderr).toBe(0)
  }, 60_000)

  it('is not echoed when the service refuses a wrong one', async () => {
    const wrong = `${secret}-wrong`
    const sync = await cli(['sync', '--once', ...simFlags(), '--db', dbFile], { EVENTWATCH_CLIENT_SECRET: wrong })
    expect(sync.code).toBe(1)
    expect(sync.stderr).toMatch(/^eventwatch: authentication failed: /m)
    expect(sync.stderr).not.toContain(wrong)
  }, 60_000)

  it('never reaches the browser host API', async () => {
    const answers: string[] = []
    const serve = await cli(['serve', '--port', '0', '--connection', name, '--db', dbFile], {}, async (url) => {
      for (const request of ['listConnections', 'getStatus', 'listLiveSessions', 'listDiagnostics']) {
        const response = await fetch(new URL(`api/request/${request}`, url), { method: 'POST', body: '{}' })
        answers.push(await response.text())
      }
    })
    expect(serve.stdout).toContain('serving on')
    const connections = JSON.parse(answers[0] ?? '{}') as { ok: boolean; value: { name: string; secretStored: boolean }[] }
    expect(connections.ok).toBe(true)
    expect(connections.value).toEqual(expect.arrayContaining([expect.objectContaining({ name, secretStored: true })]))
    transcript.push(...answers)
    expect(answers.join('\n')).not.toContain(secret)
  }, 60_000)

  it('appears in no cache file and no output', () => {
    for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`].filter(existsSync)) {
      const bytes = readFileSync(file)
      expect(bytes.includes(Buffer.from(secret, 'utf8')), file).toBe(false)
      expect(bytes.includes(Buffer.from(secret, 'utf16le')), file).toBe(false)
    }
    expect(transcript.length).toBeGreaterThanOrEqual(6)
    expect(transcript.join('\n')).not.toContain(secret)
  })
})
