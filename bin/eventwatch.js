#!/usr/bin/env node
// Runs the bundled CLI when `npm run build` has made one that is newer than every source file;
// otherwise the TypeScript sources through tsx, so `npx eventwatch` works straight after
// `npm install` and a stale bundle can never run.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bundle = join(root, 'out', 'cli', 'eventwatch.mjs')

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

function bundleIsFresh() {
  if (process.env.EVENTWATCH_FROM_SOURCE || !existsSync(bundle)) return false
  const built = statSync(bundle).mtimeMs
  return ['main', 'shared'].every((part) => newestSource(join(root, 'src', part)) <= built)
}

let main
if (bundleIsFresh()) {
  ;({ main } = await import(pathToFileURL(bundle).href))
} else {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../src/main/cli/index.ts'))
}
await main(process.argv)
