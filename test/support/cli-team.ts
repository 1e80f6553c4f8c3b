// A team server's users as the CLI makes them, and what the server answers their tokens.
import { createServer } from 'node:net'
import { expect } from 'vitest'
import { runCli } from './cli-processes'

/** A port free on loopback now (for a server started in another process). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** `eventwatch users add NAME --role operator`; the token it printed. */
export async function addUserByCli(file: string, name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const added = await runCli(['users', 'add', name, '--role', 'operator', '--db', file], env)
  expect(added.code, added.stderr).toBe(0)
  const token = /^(ewu_[\w-]{43})$/m.exec(added.stdout)?.[1]
  expect(token, added.stdout).toBeDefined()
  return token!
}

/** The HTTP status of one request of the app API with this token. */
export async function statusWith(origin: string, token: string): Promise<number> {
  const response = await fetch(`${origin}/api/request/listAlerts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}'
  })
  await response.body?.cancel()
  return response.status
}
