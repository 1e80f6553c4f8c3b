// ESLint flat config. Light on style; strict on one thing: the layering of src/ (DESIGN.md,
// "A layout that shows the architecture"):
//
//   shared  ←  core  ←  desktop | web | cli        renderer → shared only
//                                                   preload  → electron + shared only
//
// - src/shared/**     no Node built-ins, no electron, nothing from src/main|preload|renderer
// - src/main/core/**  no electron, nothing from src/main/desktop|web|cli (nor index.ts,
//                     preload, renderer)
// - src/renderer/**   no Node built-ins, no electron, nothing from src/main or src/preload
// - src/preload/**    electron, src/shared and its own files; no Node built-ins,
//                     nothing from src/main or src/renderer
// - electron: only src/main/desktop/**, src/main/index.ts and src/preload/**
// - better-sqlite3, pg: only src/main/core/store/** — the rest of the app takes the Store and
//                   the store's own types (docs/store.md), so that one backend can replace another
//
// and one level down, inside two layers (INNER_LAYERS below, DESIGN.md "Where the design goes
// next"), each part may import only the parts listed for it, all of a lower rank:
//
// - src/main/core/*   api ← store ← sync ← alerts ← app, on a base of net, secrets, health
//                     and paths.ts; connections and webhooks beside sync; fanout beside
//                     alerts; simulator and report beside api
// - src/renderer/src/* components → lib; lib/ never imports components/
//
// Every folder is under a rule: a folder of those two layers without a row (or a file directly
// under src/main/core without one), or a folder of src/main that is no layer, is itself an
// error (docs/layering.md says how to rank one).
//
// The rule is a small local one ('layering/imports') rather than core no-restricted-imports,
// because that one matches import strings only: it cannot tell where '../../main/x' lands
// from a given file, and it does not see `await import('electron')` or require('fs').
// This rule resolves relative specifiers against the importing file and checks static
// imports, `export … from`, `import x = require()`, dynamic import(), require() and type-level
// `import('…')` alike (type-only imports count: "core knows nothing of Electron").
import path from 'node:path'
import { builtinModules } from 'node:module'
import { fileURLToPath } from 'node:url'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import svelte from 'eslint-plugin-svelte'
import svelteParser from 'svelte-eslint-parser'
import globals from 'globals'

const root = path.dirname(fileURLToPath(import.meta.url))

// ---------------------------------------------------------------------------------------------
// Layering

/** Which layer a project-relative POSIX path belongs to (undefined: not a layered file). */
function layerOf(rel) {
  if (rel === 'src/main/index.ts' || rel === 'src/main/index.js') return 'main-entry'
  for (const layer of ['shared', 'preload', 'renderer']) {
    if (rel === `src/${layer}` || rel.startsWith(`src/${layer}/`)) return layer
  }
  for (const layer of ['core', 'desktop', 'web', 'cli']) {
    if (rel === `src/main/${layer}` || rel.startsWith(`src/main/${layer}/`)) return layer
  }
  if (rel.startsWith('src/main/')) return 'main-other' // no layer: an error of its own (below)
  return undefined
}

const LAYER_DIRS = {
  shared: 'src/shared',
  core: 'src/main/core',
  desktop: 'src/main/desktop',
  web: 'src/main/web',
  cli: 'src/main/cli',
  'main-entry': 'src/main/index.ts',
  'main-other': 'src/main',
  preload: 'src/preload',
  renderer: 'src/renderer',
}

/**
 * Per layer: may it use Node built-ins / electron, and which layers may its relative imports
 * reach ('*' = any). Layers not listed here are unrestricted.
 */
const POLICY = {
  shared: { node: false, electron: false, reach: ['shared'] },
  core: { node: true, electron: false, reach: ['shared', 'core'] },
  web: { node: true, electron: false, reach: '*' },
  cli: { node: true, electron: false, reach: '*' },
  'main-other': { node: true, electron: false, reach: '*' },
  desktop: { node: true, electron: true, reach: '*' },
  'main-entry': { node: true, electron: true, reach: '*' },
  renderer: { node: false, electron: false, reach: ['renderer', 'shared'] },
  preload: { node: false, electron: true, reach: ['preload', 'shared'] },
}

/**
 * Parts inside a layer: a part is a directory (or a file, named without its extension) directly
 * under `dir`. Each part has a rank and the parts it may import besides its own tree ('*' = any
 * part of the layer); a part may be listed only if it ranks lower, or the same but not the other
 * way round, so imports point down and cannot cycle (checked below, when the config loads).
 * A file in a directory without a row is an error, so a new directory needs a row; so does a
 * file directly under `dir` where `filesRanked` (core's paths.ts), and elsewhere such a file is
 * no part and not restricted here (src/renderer/src/App.svelte).
 */
const CORE_BASE = ['net', 'secrets', 'health', 'paths']
const INNER_LAYERS = {
  core: {
    dir: 'src/main/core',
    filesRanked: true,
    parts: {
      net: { rank: 0, reach: [] },
      secrets: { rank: 0, reach: [] },
      health: { rank: 0, reach: [] }, // pure verdicts (scale, score, health levels)
      metrics: { rank: 0, reach: [] }, // what the process counts of itself (GET /metrics), no I/O
      paths: { rank: 0, reach: [] }, // the file paths.ts
      'storage-faults': { rank: 0, reach: [] }, // the file storage-faults.ts: the cache file's faults in words
      api: { rank: 1, reach: [...CORE_BASE, 'storage-faults'] },
      simulator: { rank: 1, reach: [...CORE_BASE] },
      report: { rank: 1, reach: [...CORE_BASE] }, // a session report's HTML, from the report app/ builds
      store: { rank: 2, reach: ['api', ...CORE_BASE, 'storage-faults'] },
      connections: { rank: 3, reach: ['api', 'store', ...CORE_BASE] },
      sync: { rank: 3, reach: ['api', 'store', ...CORE_BASE] },
      team: { rank: 3, reach: ['store', ...CORE_BASE] }, // users, sign-ins, audit entries, the team server's client
      webhooks: { rank: 3, reach: ['api', 'store', 'connections', ...CORE_BASE] }, // the outbox, its bodies and deliveries
      alerts: { rank: 4, reach: ['api', 'store', 'connections', 'sync', 'webhooks', ...CORE_BASE] },
      fanout: { rank: 4, reach: ['store', 'alerts', ...CORE_BASE] }, // other servers' pushes, heard through the store's notifications
      app: { rank: 5, reach: '*' }, // composition: everything in core
    },
  },
  renderer: {
    dir: 'src/renderer/src',
    parts: {
      lib: { rank: 0, reach: [] },
      components: { rank: 1, reach: ['lib'] },
    },
  },
}

for (const [layer, { parts }] of Object.entries(INNER_LAYERS)) {
  for (const [name, part] of Object.entries(parts)) {
    for (const target of part.reach === '*' ? [] : part.reach) {
      const other = parts[target]
      const sideways = other?.rank === part.rank && target !== name && other.reach !== '*' && !other.reach.includes(name)
      if (!(other?.rank < part.rank || sideways)) {
        throw new Error(`eslint.config.js: ${layer} part '${name}' lists '${target}', which is no other part of a lower rank (nor of the same rank, one way only)`)
      }
    }
  }
}

/** The part of an inner layer that a project-relative path lies in ('' for the layer's own directory). */
function innerPartOf(inner, rel) {
  if (rel === inner.dir) return ''
  if (!rel.startsWith(`${inner.dir}/`)) return undefined
  return rel.slice(inner.dir.length + 1).split('/')[0].replace(/\..*$/, '')
}

/** The directory (or ranked file) directly under an inner layer's `dir` that a file is, or lies in, if it has no row. */
function unrankedPartOf(inner, rel) {
  if (!rel.startsWith(`${inner.dir}/`)) return undefined
  const [first, ...rest] = rel.slice(inner.dir.length + 1).split('/')
  if (rest.length === 0 && !inner.filesRanked) return undefined
  const name = first.replace(/\..*$/, '')
  return name in inner.parts ? undefined : { name, path: `${inner.dir}/${first}` }
}

const builtins = new Set(builtinModules)
const isNodeBuiltin = (spec) => spec.startsWith('node:') || builtins.has(spec)
const isElectron = (spec) => spec === 'electron' || spec.startsWith('electron/')
/** The database drivers (SQLite's, PostgreSQL's): the store's alone. */
const STORE_DRIVERS = ['better-sqlite3', 'pg']
const isStoreDriver = (spec) => STORE_DRIVERS.some((driver) => spec === driver || spec.startsWith(`${driver}/`))
const STORE_DIR = 'src/main/core/store'
const inStore = (rel) => rel === STORE_DIR || rel.startsWith(`${STORE_DIR}/`)

const layeringPlugin = {
  meta: { name: 'eventwatch-layering' },
  rules: {
    imports: {
      meta: {
        type: 'problem',
        docs: { description: 'Keep imports pointing down the layers described in DESIGN.md.' },
        schema: [],
        messages: {
          node: "'{{spec}}' is a Node built-in; {{layer}} code must run without Node (DESIGN.md layering).",
          electron: "'electron' may only be imported in src/main/desktop/**, src/main/index.ts and src/preload/** — not in {{layer}} (DESIGN.md layering).",
          storeDriver: "'{{spec}}' may only be imported in src/main/core/store/**: take the Store, or the store's own types and functions, from there (docs/store.md).",
          reach: "'{{spec}}' reaches {{target}}; {{layer}} may only import from {{allowed}} (DESIGN.md layering).",
          innerReach: "'{{spec}}' reaches {{target}}; {{layer}} may only import from {{scope}}'s {{allowed}} (DESIGN.md layering).",
          innerNone: "'{{spec}}' reaches {{target}}; {{layer}} may import no other part of {{scope}} (DESIGN.md layering).",
          unranked: "{{folder}} has no rank: add a row for '{{name}}' to INNER_LAYERS.{{scope}} in eslint.config.js, with the parts it may import (DESIGN.md layering).",
          noLayer: '{{folder}} is in no layer: add it to layerOf and POLICY in eslint.config.js, or move it into one (DESIGN.md layering).',
        },
      },
      create(context) {
        const file = context.physicalFilename ?? context.filename
        const fromRel = path.relative(root, file).split(path.sep).join('/')
        const layer = layerOf(fromRel)
        const policy = layer && POLICY[layer]
        if (!policy) return {}
        const where = `${LAYER_DIRS[layer]}${layer === 'main-entry' ? '' : '/**'}`
        const inner = INNER_LAYERS[layer]
        const fromPart = inner && innerPartOf(inner, fromRel)
        const fromReach = fromPart ? inner.parts[fromPart]?.reach : undefined

        // A part nobody ranked could import anything: it is the error, once per file.
        const unranked = inner && unrankedPartOf(inner, fromRel)
        if (unranked || layer === 'main-other') {
          return {
            Program(node) {
              if (unranked) {
                context.report({ node, messageId: 'unranked', data: { folder: unranked.path, name: unranked.name, scope: layer } })
              } else {
                context.report({ node, messageId: 'noLayer', data: { folder: fromRel.split('/').slice(0, 3).join('/') } })
              }
            },
          }
        }

        /** Inside the layer: may this file's part import the part that `targetRel` lies in? */
        function checkInner(node, spec, targetRel) {
          if (fromReach === undefined || fromReach === '*') return
          const targetPart = innerPartOf(inner, targetRel)
          if (targetPart === undefined || targetPart === fromPart || fromReach.includes(targetPart)) return
          context.report({
            node,
            messageId: fromReach.length > 0 ? 'innerReach' : 'innerNone',
            data: {
              spec,
              target: targetPart ? `${inner.dir}/${targetPart}` : inner.dir,
              layer: `${inner.dir}/${fromPart}`,
              scope: layer,
              allowed: fromReach.join(', '),
            },
          })
        }

        function check(node, spec) {
          if (typeof spec !== 'string' || spec === '') return
          if (spec.startsWith('.') || spec.startsWith('/')) {
            if (policy.reach === '*') return
            const target = path.resolve(path.dirname(file), spec)
            const targetRel = path.relative(root, target).split(path.sep).join('/')
            const targetLayer = targetRel.startsWith('..') ? undefined : layerOf(targetRel)
            if (targetLayer === undefined) return
            if (policy.reach.includes(targetLayer)) {
              if (targetLayer === layer) checkInner(node, spec, targetRel)
              return
            }
            context.report({
              node,
              messageId: 'reach',
              data: {
                spec,
                target: targetRel,
                layer: where,
                allowed: policy.reach.map((l) => LAYER_DIRS[l]).join(', '),
              },
            })
            return
          }
          if (isStoreDriver(spec)) {
            if (!inStore(fromRel)) context.report({ node, messageId: 'storeDriver', data: { spec } })
            return
          }
          if (isElectron(spec)) {
            if (!policy.electron) context.report({ node, messageId: 'electron', data: { layer: where } })
            return
          }
          if (isNodeBuiltin(spec) && !policy.node) {
            context.report({ node, messageId: 'node', data: { spec, layer: where } })
          }
        }

        const literal = (node) => {
          if (!node) return undefined
          if (node.type === 'Literal') return node.value
          if (node.type === 'TemplateLiteral' && node.expressions.length === 0) {
            return node.quasis[0]?.value.cooked
          }
          if (node.type === 'TSLiteralType') return literal(node.literal)
          return undefined
        }
        const fromSource = (node) => node.source && check(node.source, literal(node.source))

        return {
          ImportDeclaration: fromSource,
          ExportNamedDeclaration: fromSource,
          ExportAllDeclaration: fromSource,
          ImportExpression: (node) => check(node.source, literal(node.source)),
          TSImportEqualsDeclaration(node) {
            if (node.moduleReference.type === 'TSExternalModuleReference') {
              check(node.moduleReference, literal(node.moduleReference.expression))
            }
          },
          TSImportType(node) {
            const source = node.source ?? node.argument
            check(source, literal(source))
          },
          CallExpression(node) {
            if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length > 0) {
              check(node.arguments[0], literal(node.arguments[0]))
            }
          },
        }
      },
    },
  },
}

// ---------------------------------------------------------------------------------------------

export default tseslint.config(
  {
    name: 'eventwatch/ignores',
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'coverage/**',
      '.native/**',
    ],
  },

  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,

  {
    name: 'eventwatch/defaults',
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'warn' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  // Svelte components and rune modules: TypeScript inside <script lang="ts"> and .svelte.ts.
  {
    name: 'eventwatch/svelte-typescript',
    files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
    languageOptions: {
      parser: svelteParser,
      parserOptions: {
        parser: tseslint.parser,
        extraFileExtensions: ['.svelte'],
      },
    },
  },

  // Globals per environment.
  {
    name: 'eventwatch/globals-node',
    files: ['src/main/**', 'bin/**', 'scripts/**', 'test/**', '*.config.{js,ts,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    name: 'eventwatch/globals-browser',
    files: ['src/renderer/**', 'src/preload/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Pure code that runs in every host: only what both Node and browsers provide.
    name: 'eventwatch/globals-shared',
    files: ['src/shared/**'],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
  },
  {
    // Test doubles stand in for loosely typed APIs (Electron's, fetch's): allow `any` there.
    name: 'eventwatch/tests',
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // The layering rule, for every file under src/ (the rule decides per layer).
  {
    name: 'eventwatch/layering',
    files: ['src/**/*.{ts,js,mts,cts,svelte}'],
    plugins: { layering: layeringPlugin },
    rules: { 'layering/imports': 'error' },
  },
)
