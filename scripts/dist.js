#!/usr/bin/env node
// `npm run dist`: the installers (electron-builder.yml) for this platform, or for the targets
// given (passed through to electron-builder: `npm run dist -- --linux deb`, `-- --mac --arm64`).
//
// electron-builder packages a downloaded Electron runtime. Before building anything this makes
// sure it can get one (the installed runtime, a cached zip, or a download that answers); where
// it cannot, it says so in one line and exits 1 rather than failing deep inside the build.
import { spawn, spawnSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { electronBinary, electronVersion } from './lib/electron-runtime.js'
import { buildTargets } from './packaging/build-targets.js'
import { writeDebScripts } from './packaging/deb-scripts.js'
import { electronAvailability } from './packaging/electron-download.js'
import { keepingNodeBuilds } from './packaging/native-builds.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const electronDir = join(root, 'node_modules', 'electron')
const args = process.argv.slice(2)

function fail(line) {
  process.stderr.write(`Eventwatch: ${line}\n`)
  process.exit(1)
}

function runElectronBuilder(extraArgs) {
  const publish = args.some((arg) => arg === '--publish' || arg === '-p' || arg.startsWith('--publish='))
  const cli = join(root, 'node_modules', 'electron-builder', 'cli.js')
  const child = spawn(process.execPath, [cli, ...(publish ? [] : ['--publish', 'never']), ...extraArgs, ...args], {
    cwd: root,
    stdio: 'inherit'
  })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  return new Promise((done) => child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0))))
}

async function main() {
  const version = electronVersion(electronDir)
  const targets = buildTargets(args)
  const [here] = buildTargets([])
  const host = targets.every((target) => target.platform === here.platform && target.arch === here.arch)
  const extraArgs = []
  if (host && electronBinary(electronDir, {})) {
    // The runtime `npm install` already unpacked for this machine is the same zip's contents.
    extraArgs.push(`--config.electronDist=${join(electronDir, 'dist')}`)
  } else {
    const availability = await electronAvailability({ version, targets })
    if (!availability.ok) fail(`cannot build the installers here: ${availability.reason}.`)
  }

  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit']
  })
  if (build.status !== 0) fail('the build failed (see above); "npm run build" shows the details.')
  writeDebScripts(root)

  process.exit(await keepingNodeBuilds(root, () => runElectronBuilder(extraArgs)))
}

main().catch((error) => fail(`packaging failed: ${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)}`))
