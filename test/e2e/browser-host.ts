// Starts `eventwatch serve` as a real child process on a free port and returns the address it
// printed (with the per-launch token: `page.goto(host.url)` lets the browser in; `host.origin`
// is the bare origin).
import { test } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { printedMatch, stopChild } from './support/child-output'

export interface BrowserHost {
  /** The printed address, http://127.0.0.1:PORT/?token=TOKEN; `${url}#hash` opens a view. */
  url: string
  origin: string
  token: string
  stop(): Promise<void>
}

const root = resolve(import.meta.dirname, '../..')

export async function startBrowserHost(extraArgs: string[] = [], extraEnv: NodeJS.ProcessEnv = {}): Promise<BrowserHost> {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-e2e-'))
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'bin', 'eventwatch.js'), 'serve', '--port', '0', '--db', join(dir, 'cache.db'), ...extraArgs],
    { cwd: root, env: { ...process.env, HOME: dir, EVENTWATCH_DB: '', ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  // The printed address carries this launch's token; opening it sets the host's cookie.
  const url = await printedMatch(child, /serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/, 'browser host')
  const printed = new URL(url)
  return {
    url,
    origin: printed.origin,
    token: printed.searchParams.get('token') ?? '',
    stop: async () => {
      await stopChild(child)
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** One browser host for every test of the file: started before the first, stopped after the last. */
export function browserHostForFile(extraArgs: string[] = []): () => BrowserHost {
  let host: BrowserHost | undefined
  test.beforeAll(async () => {
    host = await startBrowserHost(extraArgs)
  })
  test.afterAll(async () => {
    await host?.stop()
  })
  return () => {
    if (!host) throw new Error('the browser host is not started: call browserHostForFile at the top of the spec')
    return host
  }
}
