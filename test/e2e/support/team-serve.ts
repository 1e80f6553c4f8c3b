// A team server as its administrator starts one: `eventwatch users add` on a cache of its own,
// then `eventwatch serve --listen 127.0.0.1:0` (loopback, so plain HTTP is allowed), as a real
// child process. Each user's token is kept for the sign-in page.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { UserRole } from '../../../src/shared/team'
import { printedMatch, stopChild } from './child-output'

export interface TeamServe {
  /** http://127.0.0.1:PORT: `${origin}/signin` is the sign-in page. */
  origin: string
  tokens: Record<string, string>
  stop(): Promise<void>
}

const root = resolve(import.meta.dirname, '../../..')
const cli = join(root, 'bin', 'eventwatch.js')

export async function startTeamServe(users: [string, UserRole][], serveArgs: string[] = ['--interval', '2']): Promise<TeamServe> {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-e2e-team-'))
  const env = { ...process.env, HOME: dir, EVENTWATCH_DB: join(dir, 'team.db') }
  const tokens: Record<string, string> = {}
  for (const [name, role] of users) {
    const out = execFileSync(process.execPath, [cli, 'users', 'add', name, '--role', role], { cwd: root, env, encoding: 'utf8' })
    tokens[name] = /^(ewu_[\w-]+)$/m.exec(out)?.[1] ?? ''
  }
  const server: ChildProcess = spawn(process.execPath, [cli, 'serve', '--listen', '127.0.0.1:0', ...serveArgs], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const origin = await printedMatch(server, /serving on (http:\/\/127\.0\.0\.1:\d+)\//, 'team server')
  return {
    origin,
    tokens,
    stop: async () => {
      await stopChild(server)
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
