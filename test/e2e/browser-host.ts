// Starts `eventwatch serve` as a real child process on a free port and returns its URL.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export interface BrowserHost {
  url: string
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
  let output = ''
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser host did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /serving on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`browser host exited (${code}):\n${output}`))
    })
  })
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
