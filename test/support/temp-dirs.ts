// Temporary folders a test file makes as it goes, all removed after its last test.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

/** Call at a test file's top level: a maker of new folders named `prefix…` under the system's
 *  temporary folder, each removed after the file's tests. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    dirs.push(dir)
    return dir
  }
}
