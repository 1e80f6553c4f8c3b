// Starts `eventwatch simulate` as a child process and reads the URLs and demo credentials it prints.
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'

export interface Simulator {
  baseUrl: string
  authUrl: string
  clientId: string
  clientSecret: string
  platformId: string
  tenantId: string
  /** The browser host's flags for an ad-hoc connection to it (the secret goes in the environment). */
  hostArgs: string[]
  stop(): Promise<void>
}

const root = resolve(import.meta.dirname, '../../..')

const FIELDS = {
  baseUrl: 'base URL',
  authUrl: 'auth URL',
  clientId: 'client ID',
  clientSecret: 'client secret',
  platformId: 'platform-id',
  tenantId: 'tenant-id'
} as const

/** The values of the simulator's banner, once every one of them has been printed. */
export function parseBanner(output: string): Record<keyof typeof FIELDS, string> | null {
  const values: Partial<Record<keyof typeof FIELDS, string>> = {}
  for (const [key, label] of Object.entries(FIELDS) as [keyof typeof FIELDS, string][]) {
    const match = new RegExp(`^${label}:\\s+(\\S+)\\s*$`, 'm').exec(output)
    if (!match?.[1]) return null
    values[key] = match[1]
  }
  return values as Record<keyof typeof FIELDS, string>
}

export async function startSimulator(args: string[]): Promise<Simulator> {
  const child: ChildProcess = spawn(process.execPath, [join(root, 'bin', 'eventwatch.js'), 'simulate', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  const banner = await new Promise<Record<keyof typeof FIELDS, string>>((resolveBanner, reject) => {
    const timer = setTimeout(() => reject(new Error(`simulator did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const parsed = parseBanner(output)
      if (parsed) {
        clearTimeout(timer)
        resolveBanner(parsed)
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`simulator exited (${code}):\n${output}`))
    })
  })
  return {
    ...banner,
    hostArgs: [
      '--base-url', banner.baseUrl,
      '--auth-url', banner.authUrl,
      '--platform-id', banner.platformId,
      '--tenant-id', banner.tenantId,
      '--client-id', banner.clientId
    ],
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
    }
  }
}
