// The browser host serves the built renderer; build it once if this checkout has not yet.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CliError } from './errors'

/** The folder of Eventwatch's package.json: this file runs from src/main/cli or from out/cli. */
function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'eventwatch') {
      return dir
    }
    if (dirname(dir) === dir) throw new CliError('cannot find the Eventwatch installation (package.json).', 1)
  }
}

export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)))
export const rendererDir = join(projectRoot, 'out', 'renderer')

export function ensureRendererBuilt(): string {
  if (existsSync(join(rendererDir, 'index.html'))) return rendererDir
  process.stderr.write('Building the user interface once (out/renderer)...\n')
  const cli = join(projectRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  if (!existsSync(cli)) throw new CliError('the UI is not built and electron-vite is not installed: run "npm install" then "npm run build".')
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'inherit'] })
  if (result.status !== 0 || !existsSync(join(rendererDir, 'index.html'))) {
    throw new CliError('building the UI failed (see above); "npm run build" shows the details.', 1)
  }
  return rendererDir
}
