// Other programs on the cache file, as an administrator runs them while Eventwatch is running:
// the sqlite3 shell and Python's sqlite3 module, as real processes with their own SQLite.
import { execFile } from 'node:child_process'
import { readdirSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** `sqlite3 FILE SQL` (the shell from Debian's sqlite3 package); its standard output. */
export async function sqliteShell(file: string, sql: string): Promise<string> {
  return (await run('sqlite3', [file, sql], { timeout: 30_000 })).stdout
}

/**
 * One read-only query through Python's sqlite3 (its own copy of SQLite), the connection closed
 * after it, as a monitoring script does; the rows as JSON.
 */
export async function pythonQuery(file: string, sql: string): Promise<unknown[]> {
  const script = [
    'import json, sqlite3, sys',
    "c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True, timeout=10)",
    'rows = c.execute(sys.argv[2]).fetchall()',
    'c.close()',
    'print(json.dumps(rows))'
  ].join('\n')
  return JSON.parse((await run('python3', ['-c', script, file, sql], { timeout: 30_000 })).stdout) as unknown[]
}

/** Where the process's descriptors on `file` and its -wal/-shm point (Linux's /proc), "(deleted)" included. */
export function descriptorsOn(pid: number, file: string): string[] {
  const dir = `/proc/${pid}/fd`
  const targets: string[] = []
  for (const fd of readdirSync(dir)) {
    try {
      const target = readlinkSync(join(dir, fd))
      if (target.startsWith(file)) targets.push(target)
    } catch {
      // closed meanwhile
    }
  }
  return targets.sort()
}
