// A throwaway PostgreSQL cluster for tests: Debian's binaries, initdb into a fresh temporary
// folder, started on a free loopback port with its unix socket in that folder, trust auth, and
// removed when stopped. Real PostgreSQL, never a mock (the store contract runs on it).
//
// PostgreSQL refuses to run as root, so as root (CI is root) the cluster belongs to the
// `postgres` user that Debian's package creates; as anyone else it belongs to that user.
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface PostgresCluster {
  /** A `postgres://` URL of `database` on this cluster (the superuser `postgres`, trust auth). */
  url(database?: string): string
  /** Stops the server at once and removes its folder. */
  stop(): void
  /** Shuts the server down cleanly (as `pg_ctl stop` does), keeping its data: a restart's first half. */
  shutDown(): void
  /** Starts a server shut down by `shutDown` again, on the same port and data. */
  startAgain(): void
}

const PG_ROOT = '/usr/lib/postgresql'

/** The bin folder of the newest installed PostgreSQL (15 or newer), or a clear error. */
export function postgresBin(): string {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT).filter((v) => /^\d+$/.test(v) && existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    : []
  const newest = versions.map(Number).sort((a, b) => b - a)[0]
  if (newest === undefined || newest < 15) {
    throw new Error(
      `no PostgreSQL 15 or newer in ${PG_ROOT}/*/bin: install Debian's postgresql package (apt-get install postgresql; .ci/run does it)`
    )
  }
  return join(PG_ROOT, String(newest), 'bin')
}

/** Who runs the cluster: ourselves, or (as root, which PostgreSQL refuses) the `postgres` user. */
function clusterOwner(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
  if (id.status !== 0 || gid.status !== 0) {
    throw new Error(
      'running as root, and PostgreSQL refuses root: a `postgres` system user is needed to own the test cluster ' +
        "(Debian's postgresql package creates it; or run the tests as an ordinary user)"
    )
  }
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/** Runs a PostgreSQL binary as the cluster's owner; its output in the error when it fails. */
function runAsOwner(owner: { uid: number } | null, bin: string, args: string[]): void {
  const [file, argv] = owner
    ? ['su', ['postgres', '-s', '/bin/sh', '-c', [bin, ...args].map(quote).join(' ')]]
    : [bin, args]
  try {
    execFileSync(file, argv, { stdio: 'pipe', encoding: 'utf8' })
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`${bin} ${args.join(' ')} failed: ${e.stderr || e.stdout || e.message}`)
  }
}

/**
 * Starts a fresh cluster; stop() it when done (a test run's globalSetup does, once). `settings`
 * are server settings (`-c name=value`) over the test defaults: a benchmark turns durable commits
 * back on with them, or settings only read at start (`track_commit_timestamp`).
 */
export async function startPostgres(settings: Record<string, string> = {}): Promise<PostgresCluster> {
  const bin = postgresBin()
  const owner = clusterOwner()
  // As root the folder must be reachable by `postgres`: /tmp is, a private TMPDIR may not be.
  const dir = mkdtempSync(join(owner ? '/tmp' : tmpdir(), 'eventwatch-pg-'))
  if (owner) chownSync(dir, owner.uid, owner.gid)
  const data = join(dir, 'data')
  const log = join(dir, 'server.log')
  const port = await freePort()
  // Durability is not what tests measure: fsync off makes a database per test cheap.
  const chosen = Object.entries(settings).map(([name, value]) => ` -c ${name}=${value}`).join('')
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off${chosen}`
  const withLog = (error: unknown): Error =>
    new Error(`${(error as Error).message}${existsSync(log) ? `\n${readFileSync(log, 'utf8').slice(-2000)}` : ''}`)
  let running = false
  const start = (): void => {
    runAsOwner(owner, join(bin, 'pg_ctl'), ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', options])
    running = true
  }
  try {
    runAsOwner(owner, join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'])
    start()
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw withLog(error)
  }
  return {
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop() {
      try {
        if (running) runAsOwner(owner, join(bin, 'pg_ctl'), ['stop', '-m', 'immediate', '-D', data])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
    shutDown() {
      runAsOwner(owner, join(bin, 'pg_ctl'), ['stop', '-w', '-m', 'fast', '-D', data])
      running = false
    },
    startAgain() {
      try {
        start()
      } catch (error) {
        throw withLog(error)
      }
    }
  }
}
