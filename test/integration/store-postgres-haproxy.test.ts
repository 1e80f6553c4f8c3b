// The HAProxy configuration of docs/several-servers.md, run as it is written (loopback addresses
// put in for the doc's), in front of two real `eventwatch serve` processes over TLS on one
// PostgreSQL database, as the doc has them: it checks each server's /readyz, takes a server that
// cannot reach the database out of the rotation while its process is still up (its path to the
// database stalls, as a partitioned network does), takes it back when the path is open again, and
// goes on answering when a server is killed.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { homeEnv } from '../support/cli'
import { startCli, type RunningCli } from '../support/cli-processes'
import { freePort } from '../support/cli-team'
import { privateCa } from '../support/corporate-network'
import { pausableProxy } from '../support/pausable-proxy'
import { freshDatabase } from '../support/postgres-databases'
import { trustingFetch } from '../support/team-server'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-haproxy-')
const DOC = join(import.meta.dirname, '../../docs/several-servers.md')
const PUBLIC_NAME = 'noc.eventwatch.test'

/** The ```haproxy block of the doc, with this test's addresses, name and CA for the doc's. */
function configFromDoc(port: number, caFile: string, statsSocket: string): string {
  const block = /```haproxy\n([\s\S]*?)```/.exec(readFileSync(DOC, 'utf8'))?.[1]
  if (!block) throw new Error('docs/several-servers.md has no ```haproxy block')
  const replaced = block
    .replaceAll('noc.example.com:8443', `${PUBLIC_NAME}:${port}`)
    .replaceAll('noc.example.com', PUBLIC_NAME)
    .replace('bind :8443', `bind 127.0.0.1:${port}`)
    .replace('10.0.0.5:8443', `127.0.0.2:${port}`)
    .replace('10.0.0.6:8443', `127.0.0.3:${port}`)
    .replace('/etc/haproxy/eventwatch-ca.pem', caFile)
  // Each replaced line must have been there: a doc that changed shape fails here, not later.
  for (const gone of ['noc.example.com', ':8443', '10.0.0.', '/etc/haproxy/']) expect(replaced).not.toContain(gone)
  // The test reads the servers' states from HAProxy's own socket.
  return replaced.replace('global\n', `global\n    stats socket ${statsSocket} mode 600 level admin\n`)
}

/** HAProxy's view of each server of the backend: name → status (UP, DOWN, …). */
function serverStates(socket: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const client = connect(socket)
    let text = ''
    client.on('data', (chunk) => (text += chunk.toString()))
    client.on('error', reject)
    client.on('end', () => {
      const [header, ...rows] = text.trim().split('\n')
      const columns = header!.replace(/^# /, '').split(',')
      const at = (name: string): number => columns.indexOf(name)
      const states: Record<string, string> = {}
      for (const row of rows.map((line) => line.split(','))) {
        if (row[at('pxname')] === 'eventwatch' && !['BACKEND', 'FRONTEND'].includes(row[at('svname')]!)) {
          states[row[at('svname')]!] = row[at('status')]!.split(' ')[0]!
        }
      }
      resolve(states)
    })
    client.end('show stat\n')
  })
}

describe('two team servers behind the HAProxy configuration of docs/several-servers.md', () => {
  const running: { stop(): Promise<unknown> }[] = []
  afterEach(async () => {
    for (const process of running.splice(0).reverse()) await process.stop()
  })

  it('routes around a server that is not ready and one that is killed', async () => {
    const dir = newDir()
    const ca = privateCa(dir, PUBLIC_NAME)
    const port = await freePort()
    const env = homeEnv(dir)
    const serve = (address: string, db: string): RunningCli => {
      const server = startCli(
        ['serve', '--listen', `${address}:${port}`, '--tls-cert', join(dir, 'server.pem'), '--tls-key', join(dir, 'server.key'), '--db', db, '--interval', '5'],
        env
      )
      running.push(server)
      return server
    }
    const database = await freshDatabase()
    running.push({ stop: () => database.drop() })
    // A reaches the database through a path the test can stall; B directly.
    const pathOfA = await pausableProxy(Number(new URL(database.url).port))
    running.push({ stop: () => pathOfA.close() })
    const a = serve('127.0.0.2', pathOfA.through(database.url))
    await a.waitFor(/serving on https:/, 120_000) // A migrates the empty database; B finds it done
    const b = serve('127.0.0.3', database.url)
    await Promise.all([a.waitFor(/serving on https:/, 120_000), b.waitFor(/serving on https:/, 120_000)])

    const statsSocket = join(dir, 'haproxy.sock')
    const configFile = join(dir, 'haproxy.cfg')
    writeFileSync(configFile, configFromDoc(port, ca.caFile, statsSocket))
    const haproxy: ChildProcess = spawn('haproxy', ['-f', configFile, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] })
    let haproxyErrors = ''
    haproxy.stderr!.on('data', (chunk) => (haproxyErrors += chunk.toString()))
    const haproxyExited = new Promise((resolve) => haproxy.on('close', resolve))
    running.push({ stop: async () => (haproxy.kill('SIGTERM'), await haproxyExited) })

    const states = async (): Promise<Record<string, string>> => serverStates(statsSocket)
    const waitForStates = (expected: Record<string, string>): Promise<void> =>
      vi.waitFor(async () => expect(await states(), haproxyErrors).toEqual(expected), { timeout: 30_000, interval: 250 })

    // Through the load balancer, by the address the browser uses (the certificate carries it).
    const fetcher = trustingFetch(ca.caFile)
    const readyThroughBalancer = async (times: number): Promise<number[]> => {
      const statuses: number[] = []
      for (let i = 0; i < times; i++) {
        const response = await fetcher(`https://127.0.0.1:${port}/readyz`)
        await response.text()
        statuses.push(response.status)
      }
      return statuses
    }

    await waitForStates({ a: 'UP', b: 'UP' })
    expect(await readyThroughBalancer(6)).toEqual([200, 200, 200, 200, 200, 200])

    // A's process is up but the database does not answer it: out of the rotation.
    pathOfA.pause()
    await waitForStates({ a: 'DOWN', b: 'UP' })
    expect(await readyThroughBalancer(6)).toEqual([200, 200, 200, 200, 200, 200])

    // Its path open again: back in, without a restart.
    pathOfA.resume()
    await waitForStates({ a: 'UP', b: 'UP' })

    // B dies without a word: the balancer routes every request to A.
    b.child.kill('SIGKILL')
    await waitForStates({ a: 'UP', b: 'DOWN' })
    expect(await readyThroughBalancer(6)).toEqual([200, 200, 200, 200, 200, 200])
  }, 180_000)
})
