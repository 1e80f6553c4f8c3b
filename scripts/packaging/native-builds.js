// electron-builder's npmRebuild rebuilds the native modules for Electron in place, in the
// project's node_modules, where the tests and the CLI need Node's builds (a different ABI).
// This keeps a copy of each module's build/ and puts it back, whatever the packaging did.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const NATIVE_MODULES = ['better-sqlite3', 'keytar']

/** Runs `work` (sync or async), then restores node_modules/<module>/build for each module. */
export async function keepingNodeBuilds(root, work, modules = NATIVE_MODULES) {
  const backup = mkdtempSync(join(tmpdir(), 'eventwatch-native-'))
  const saved = modules.filter((name) => existsSync(join(root, 'node_modules', name, 'build')))
  for (const name of saved) cpSync(join(root, 'node_modules', name, 'build'), join(backup, name), { recursive: true })
  try {
    return await work()
  } finally {
    for (const name of saved) {
      const build = join(root, 'node_modules', name, 'build')
      rmSync(build, { recursive: true, force: true })
      cpSync(join(backup, name), build, { recursive: true })
    }
    rmSync(backup, { recursive: true, force: true })
  }
}
