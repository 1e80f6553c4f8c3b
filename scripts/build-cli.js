#!/usr/bin/env node
// Bundles the CLI into out/cli/eventwatch.mjs, so `eventwatch` starts in half the time it takes
// through tsx. bin/eventwatch.js uses the bundle only while it is newer than every source file.
import { build } from 'esbuild'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

await build({
  entryPoints: [join(root, 'src', 'main', 'cli', 'index.ts')],
  outfile: join(root, 'out', 'cli', 'eventwatch.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Dependencies (native modules among them) load from node_modules, as in development.
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning'
})
