// The built desktop bundles (out/), built once if this checkout has none, and the fake electron
// app pointed at a throwaway home: for tests that load what `npm run build` produced.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { app } from './fake-electron'

export const root = resolve(import.meta.dirname, '../..')
export const builtMain = join(root, 'out', 'main', 'index.js')
export const builtPreload = join(root, 'out', 'preload', 'index.cjs')
export const builtRenderer = join(root, 'out', 'renderer', 'index.html')

/** Registers the hooks; returns the throwaway home the fake app's paths point into. */
export function useBuiltDesktop(name: string): string {
  const home = mkdtempSync(join(tmpdir(), `eventwatch-${name}-`))
  beforeAll(() => {
    if (![builtMain, builtPreload, builtRenderer].every(existsSync)) {
      const build = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
        cwd: root,
        stdio: 'ignore'
      })
      expect(build.status).toBe(0)
    }
    app.getPath.mockImplementation((path: string) => join(home, path))
    app.getAppPath.mockImplementation(() => home) // no .native/ there: the Node build of SQLite loads
  }, 120_000)
  afterAll(() => {
    rmSync(home, { recursive: true, force: true })
  })
  return home
}
