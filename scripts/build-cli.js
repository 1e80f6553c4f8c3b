#!/usr/bin/env node
// Bundles the CLI into out/cli/eventwatch.mjs, so `eventwatch` starts in half the time it takes
// through tsx, and the cache writer's worker thread beside it (viewer-writer.ts looks for it
// there). bin/eventwatch.js uses the bundle only while it is newer than every source file.
import { build } from 'esbuild'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

await build({
  entryPoints: {
    eventwatch: join(root, 'src', 'main', 'cli', 'index.ts'),
    'viewer-writer-worker': join(root, 'src', 'main', 'core', 'store', 'viewer-writer-worker.ts')
  },
  outdir: join(root, 'out', 'cli'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native modules load from node_modules, as in development. The pure-JavaScript ones (zod,
  // commander) are bundled: loaded from node_modules as dozens of ES modules they cost about
  // 100 ms of every command's start.
  external: ['better-sqlite3', 'keytar'],
  // commander is CommonJS: its require() of Node's own modules needs a require in an ES module.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning'
})
