// The `eventwatch` command line (bin/eventwatch.js), run as a real child process.
import Database from 'better-sqlite3'
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CLI_BIN, cliEnv, ROOT } from '../support/cli'

const API_FIELDS = [
  'eventSessionId',
  'platformId',
  'tenantId',
  'contentId',
  'startedAt',
  'updatedAt',
  'hasEnded',
  'viewersCount',
  'reliabilityScore',
  'cdnTraffic',
  'ecdnTraffic'
]

let home: string
const children = new Set<ChildProcess>()

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-cli-'))
})

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  children.clear()
})

afterAll(() => {
  rmSync(home, { recursive: true, force: true })
})

const env = (): NodeJS.ProcessEnv => cliEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config') })

function start(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  return child
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = start(args)
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }))
  })
}

const NO_STACK = /\n\s+at .+[:(]/

describe('eventwatch CLI', () => {
  it('--help exits 0 and lists simulate, sync, export and serve', async () => {
    const { code, stdout } = await run(['--help'])
    expect(code).toBe(0)
    for (const command of ['simulate', 'sync', 'export', 'serve']) expect(stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'))
  })

  describe('sync then export', () => {
    let dbFile: string

    beforeAll(async () => {
      dbFile = join(home, 'data', 'cache.db')
      const result = await run(['sync', '--once', '--db', dbFile])
      expect(result.stderr).not.toMatch(NO_STACK)
      expect(result.code).toBe(0)
    }, 60_000)

    it('sync --once creates the cache file with sessions and snapshots in it', () => {
      expect(existsSync(dbFile)).toBe(true)
      const db = new Database(dbFile, { readonly: true })
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
        const { n } = db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }
        expect(n).toBeGreaterThan(0)
        const live = db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE has_ended = 0').get() as { n: number }
        const snaps = db.prepare('SELECT COUNT(*) AS n FROM snapshots').get() as { n: number }
        expect(snaps.n).toBe(live.n)
      } finally {
        db.close()
      }
    })

    it('export sessions --format json prints every cached session under the API field names', async () => {
      const { code, stdout, stderr } = await run(['export', 'sessions', '--db', dbFile, '--format', 'json'])
      expect(stderr).toBe('')
      expect(code).toBe(0)
      const items = JSON.parse(stdout) as Record<string, unknown>[]
      expect(Array.isArray(items)).toBe(true)
      expect(items.length).toBeGreaterThan(0)

      const db = new Database(dbFile, { readonly: true })
      const rows = db
        .prepare('SELECT event_session_id, viewers_count, has_ended, started_at FROM sessions')
        .all() as { event_session_id: string; viewers_count: number; has_ended: number; started_at: number }[]
      db.close()
      expect(items.length).toBe(rows.length)
      const byId = new Map(rows.map((r) => [r.event_session_id, r]))
      for (const item of items) {
        for (const field of API_FIELDS) expect(item, field).toHaveProperty(field)
        expect(typeof item.hasEnded).toBe('boolean')
        expect(typeof item.viewersCount).toBe('number')
        const row = byId.get(item.eventSessionId as string)
        expect(row).toBeDefined()
        expect(item.viewersCount).toBe(row!.viewers_count)
        expect(item.hasEnded).toBe(row!.has_ended === 1)
        expect(Date.parse(item.startedAt as string)).toBe(row!.started_at)
      }
      expect(new Set(items.map((i) => i.eventSessionId)).size).toBe(items.length)
    })

    it('export sessions --format csv prints a header row with the API field names and one row per session', async () => {
      const { code, stdout } = await run(['export', 'sessions', '--db', dbFile, '--format', 'csv'])
      expect(code).toBe(0)
      const lines = stdout.split('\r\n').filter((l) => l !== '')
      const header = lines[0]!.split(',')
      for (const field of API_FIELDS) expect(header).toContain(field)
      const db = new Database(dbFile, { readonly: true })
      const { n } = db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }
      db.close()
      expect(lines.length).toBe(1 + n)
    })

    it('rejects an unknown --format with a non-zero exit', async () => {
      const { code, stderr } = await run(['export', 'sessions', '--db', dbFile, '--format', 'xml'])
      expect(code).not.toBe(0)
      expect(stderr).toMatch(/xml/)
    })
  })

  it('serve on a port that is taken says so in one line and exits 2', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()))
    const { port } = blocker.address() as AddressInfo
    try {
      const { code, stdout, stderr } = await run(['serve', '--port', String(port), '--db', join(home, 'serve.db')])
      expect(code).toBe(2)
      expect(stdout).not.toContain('serving on')
      expect(stderr.trim().split('\n').at(-1)).toBe(`eventwatch: port ${port} is in use; pass --port 0 for a free one.`)
      expect(stderr).not.toMatch(NO_STACK)
    } finally {
      blocker.close()
    }
  }, 60_000)

  it('serve --port 0 prints an address with a new token each launch; only that address lets a browser in', async () => {
    const launch = async (): Promise<{ child: ChildProcess; url: string }> => {
      const child = start(['serve', '--port', '0', '--db', join(home, 'serve-token.db')])
      let out = ''
      const url = await new Promise<string>((resolvePromise, reject) => {
        child.stdout?.setEncoding('utf8').on('data', (d: string) => {
          out += d
          const match = /^Eventwatch is serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43})$/m.exec(out)
          if (match?.[1]) resolvePromise(match[1])
        })
        child.on('exit', (code) => reject(new Error(`serve exited early (${code}): ${out}`)))
      })
      return { child, url }
    }
    const stop = async (child: ChildProcess): Promise<number | null> => {
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
      child.kill('SIGTERM')
      return exited
    }

    const first = await launch()
    const origin = new URL(first.url).origin
    expect((await fetch(`${origin}/`)).status).toBe(401)
    const entry = await fetch(first.url, { redirect: 'manual' })
    expect(entry.status).toBe(303)
    expect(entry.headers.get('location')).toBe('/')
    const cookie = (entry.headers.get('set-cookie') ?? '').split(';')[0]!
    const page = await fetch(`${origin}/`, { headers: { Cookie: cookie } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="app">')
    expect(await stop(first.child)).toBe(0)

    // A second launch does not accept the first one's address or cookie.
    const second = await launch()
    expect(second.url).not.toBe(first.url)
    const secondOrigin = new URL(second.url).origin
    const stale = first.url.replace(origin, secondOrigin)
    expect((await fetch(stale, { redirect: 'manual' })).status).toBe(401)
    expect(await stop(second.child)).toBe(0)
  }, 60_000)

  it('export against a missing file exits non-zero with one line on stderr and no stack trace', async () => {
    const missing = join(home, 'nowhere', 'missing.db')
    const { code, stdout, stderr } = await run(['export', 'sessions', '--db', missing])
    expect(code).not.toBe(0)
    expect(code).not.toBeNull()
    expect(stdout).toBe('')
    const lines = stderr.split('\n').filter((l) => l.trim() !== '')
    expect(lines.length).toBe(1)
    expect(lines[0]).toContain(missing)
    expect(stderr).not.toMatch(NO_STACK)
    expect(existsSync(missing)).toBe(false) // not created by looking
  })

  it('sync against a cache from a newer schema exits non-zero with one clear line and leaves the file alone', async () => {
    const file = join(home, 'newer.db')
    const db = new Database(file)
    db.pragma('user_version = 999')
    db.close()
    const { code, stderr } = await run(['sync', '--once', '--db', file])
    expect(code).not.toBe(0)
    expect(code).not.toBeNull()
    const lines = stderr.split('\n').filter((l) => l.trim() !== '')
    expect(lines.length).toBe(1)
    expect(lines[0]).toMatch(/newer/i)
    expect(stderr).not.toMatch(NO_STACK)
    const check = new Database(file, { readonly: true })
    expect(check.pragma('user_version', { simple: true })).toBe(999)
    check.close()
  })

  it('simulate --port 0 prints its URLs and demo credentials, and serves the API there', async () => {
    const child = start(['simulate', '--port', '0'])
    let out = ''
    type Printed = Record<'baseUrl' | 'authUrl' | 'clientId' | 'clientSecret' | 'platformId' | 'tenantId', string>
    const info = await new Promise<Printed>((resolvePromise, reject) => {
      child.stdout?.setEncoding('utf8').on('data', (d: string) => {
        out += d
        const field = (label: string) => new RegExp(`^${label}:\\s*(\\S+)\\s*$`, 'm').exec(out)?.[1]
        const values = {
          baseUrl: field('base URL'),
          authUrl: field('auth URL'),
          clientId: field('client ID'),
          clientSecret: field('client secret'),
          platformId: field('platform-id'),
          tenantId: field('tenant-id')
        }
        if (Object.values(values).every(Boolean)) resolvePromise(values as Printed)
      })
      child.on('exit', (code) => reject(new Error(`simulate exited early (${code}): ${out}`)))
    })
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(info.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

    const tokenRes = await fetch(`${info.authUrl}/v2/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: info.clientId, client_secret: info.clientSecret })
    })
    expect(tokenRes.status).toBe(200)
    const token = (await tokenRes.json()) as { access_token: string; token_type: string }
    expect(token.token_type).toBe('bearer')

    const list = await fetch(`${info.baseUrl}/v1/events/sessions`, {
      headers: {
        Authorization: `Bearer ${token.access_token}`,
        'platform-id': info.platformId,
        'tenant-id': info.tenantId
      }
    })
    expect(list.status).toBe(200)
    const body = (await list.json()) as { data: unknown[] }
    expect(body.data.length).toBeGreaterThan(0)

    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0) // Ctrl-C / SIGTERM is a clean stop
  })

  it.each([
    [['sync', '--interval', 'abc'], '--interval'],
    [['sync', '--once', '--interval', '0'], '--interval'],
    [['simulate', '--port', '70000'], '--port'],
    [['simulate', '--live', '1.5'], '--live']
  ])('rejects an invalid option value (%j) with a clear message', async (args, option) => {
    const { code, stderr } = await run(args as string[])
    expect(code).not.toBe(0)
    expect(code).not.toBeNull()
    expect(stderr).toContain(option)
    expect(stderr).toMatch(/expected/)
    expect(stderr).not.toMatch(NO_STACK)
  })

  it('rejects an unknown command with a non-zero exit', async () => {
    const { code, stderr } = await run(['frobnicate'])
    expect(code).not.toBe(0)
    expect(stderr).toMatch(/unknown command/i)
  })
})
