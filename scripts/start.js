#!/usr/bin/env node
// `npm start`: build, then the desktop app when an Electron runtime is available; otherwise
// one line saying so and the browser host, whose URL it prints. Never a stack trace.
import { spawn, spawnSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { electronBinary, electronVersion, tryDownloadElectron } from './lib/electron-runtime.js'
import { ensureElectronSqlite } from './lib/electron-native.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const electronDir = join(root, 'node_modules', 'electron')
const passThrough = process.argv.slice(2)

function say(line) {
  process.stdout.write(`${line}\n`)
}

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

const build = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit']
})
const cliBuild = build.status === 0 ? spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.js')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] }) : build
if (cliBuild.status !== 0) {
  say('Eventwatch: the build failed (see above). Run "npm install" first; "npm run build" shows the details.')
  process.exit(1)
}

let binary = electronBinary(electronDir)
if (!binary && tryDownloadElectron(electronDir, join(root, '.native'))) binary = electronBinary(electronDir)

if (!binary) {
  say('Eventwatch: no Electron runtime here (its binary could not be downloaded), so starting the browser host instead.')
  run(process.execPath, [join(root, 'bin', 'eventwatch.js'), 'serve', ...passThrough])
} else {
  const version = electronVersion(electronDir)
  const sqlite = await ensureElectronSqlite(root, version)
  if (!sqlite) {
    say(`Eventwatch: could not build the SQLite module for Electron ${version}, so starting the browser host instead.`)
    run(process.execPath, [join(root, 'bin', 'eventwatch.js'), 'serve', ...passThrough])
  } else {
    run(binary, [root, ...passThrough])
  }
}
