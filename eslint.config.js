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
  if (rel.startsWith('src/main/')) return 'main-other'
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

const builtins = new Set(builtinModules)
const isNodeBuiltin = (spec) => spec.startsWith('node:') || builtins.has(spec)
const isElectron = (spec) => spec === 'electron' || spec.startsWith('electron/')

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
          reach: "'{{spec}}' reaches {{target}}; {{layer}} may only import from {{allowed}} (DESIGN.md layering).",
        },
      },
      create(context) {
        const file = context.physicalFilename ?? context.filename
        const fromRel = path.relative(root, file).split(path.sep).join('/')
        const layer = layerOf(fromRel)
        const policy = layer && POLICY[layer]
        if (!policy) return {}
        const where = `${LAYER_DIRS[layer]}${layer === 'main-entry' ? '' : '/**'}`

        function check(node, spec) {
          if (typeof spec !== 'string' || spec === '') return
          if (spec.startsWith('.') || spec.startsWith('/')) {
            if (policy.reach === '*') return
            const target = path.resolve(path.dirname(file), spec)
            const targetRel = path.relative(root, target).split(path.sep).join('/')
            const targetLayer = targetRel.startsWith('..') ? undefined : layerOf(targetRel)
            if (targetLayer === undefined || policy.reach.includes(targetLayer)) return
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
