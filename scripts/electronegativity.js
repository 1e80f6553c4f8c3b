#!/usr/bin/env node
// The electronegativity gate: scans the Electron app's sources (src/main, src/preload,
// src/renderer, src/shared) with @doyensec/electronegativity and exits non-zero on any HIGH or
// MEDIUM finding not suppressed inline with a reason (policy: lib/electronegativity-report.js).
//
//   node scripts/electronegativity.js
//
// How it drives the scanner, and why:
// - Its CLI cannot run here (it requires an undeclared `commander` and gets our v14), so this
//   calls its package main (dist/runner.js) and uses the issues and parse errors it returns.
//   Its own output files are not used: the SARIF carries no severity, and the CSV's header and
//   body are two unawaited writes that can land in either order.
// - It never touches the network: `got` (its translation download, and the Electron release
//   list of AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK) is replaced before it loads. That check is
//   excluded by name — it cannot work offline and would make the gate depend on GitHub; Electron
//   updates are the dependency updates' job.
// - It scans a copy: the sources, plus each .svelte file's <script> blocks as a .ts file with
//   the same line numbers (it reads only .js/.ts/.html), and with `eng-disable` defused so it
//   reports everything; the suppressions are then applied here, with our stricter rule.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import {
  evaluate,
  findingsFromIssues,
  findSuppressions,
  formatTable,
  summaryLine,
  svelteScriptsAsTs
} from './lib/electronegativity-report.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SCANNED_DIRS = ['src/main', 'src/preload', 'src/renderer', 'src/shared']
const SCANNED = /\.(?:[cm]?js|jsx|ts|tsx|html?)$/
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck']

const log = (line = '') => process.stdout.write(`${line}\n`)

/** Project-relative POSIX paths of every file under `dir`. */
function listFiles(dir) {
  const entries = fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath ?? entry.path, entry.name)).split(path.sep).join('/'))
    .sort()
}

/** Copies what is scanned into `stage`; returns staged path → project path for each file. */
function stageSources(stage) {
  const origin = new Map()
  const sources = []
  const put = (relative, text, original) => {
    const target = path.join(stage, relative)
    fs.mkdirSync(path.dirname(target), { recursive: true })
    // Defused (same length, same lines) so the scanner reports suppressed findings too.
    fs.writeFileSync(target, text.replaceAll('eng-disable', 'eng-disabl_'))
    origin.set(relative, original)
  }
  for (const dir of SCANNED_DIRS) {
    for (const file of listFiles(dir)) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8')
      if (SCANNED.test(file)) {
        put(file, text, file)
        sources.push({ file, text })
      } else if (file.endsWith('.svelte')) {
        put(`${file}.ts`, svelteScriptsAsTs(text), file)
        sources.push({ file, text })
      }
    }
  }
  // Where the scanner reads the Electron version from (its defaults depend on it).
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(stage, 'package.json'))
  return { origin, sources }
}

/** Loads the runner with `got` replaced by a function that never opens a connection. */
function loadOfflineRunner() {
  const require = createRequire(import.meta.url)
  const packageDir = path.dirname(require.resolve('@doyensec/electronegativity/package.json'))
  const runnerFile = path.join(packageDir, 'dist', 'runner.js')
  const fromRunner = createRequire(runnerFile)
  const gotFile = fromRunner.resolve('got')
  // The translation download treats a non-200 answer as "keep the bundled en-US strings";
  // anything else asked of it fails at once.
  const offlineGot = async () => ({ statusCode: 0, body: '', headers: {} })
  offlineGot.head = async () => {
    throw new Error('electronegativity gate: no network')
  }
  fromRunner.cache[gotFile] = { id: gotFile, filename: gotFile, loaded: true, exports: offlineGot, children: [], paths: [] }
  return fromRunner(runnerFile)
}

async function main() {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'eventwatch-electronegativity-'))
  try {
    const { origin, sources } = stageSources(stage)
    const run = loadOfflineRunner()
    const result = await run(
      {
        input: stage,
        isRelative: true,
        customScan: [],
        excludeFromScan: EXCLUDED_CHECKS.map((name) => name.toLowerCase()),
        parserPlugins: []
      },
      false
    )
    const projectPath = (file) => origin.get(file) ?? file
    const findings = findingsFromIssues(result.issues, projectPath)
    const parseErrors = (result.errors ?? []).map((error) => ({
      file: projectPath(path.relative(stage, error.file).split(path.sep).join('/')),
      message: String(error.message)
    }))

    const suppressions = []
    const badSuppressions = []
    for (const { file, text } of sources) {
      const found = findSuppressions(file, text)
      suppressions.push(...found.suppressions)
      badSuppressions.push(...found.bad)
    }

    const verdict = evaluate({ findings, suppressions, badSuppressions, parseErrors })
    log(`electronegativity ${readVersion()}: ${result.atomicChecks} atomic and ${result.globalChecks} global checks over ${origin.size} files in ${SCANNED_DIRS.join(', ')}`)
    log(`not run: ${EXCLUDED_CHECKS.join(', ')} (needs the network)`)
    for (const line of formatTable(verdict.rows)) log(`  ${line}`)
    for (const failure of verdict.failures) log(`FAIL ${failure}`)
    log(summaryLine(verdict))
    return verdict.passed ? 0 : 1
  } finally {
    fs.rmSync(stage, { recursive: true, force: true })
  }
}

function readVersion() {
  const require = createRequire(import.meta.url)
  return require('@doyensec/electronegativity/package.json').version
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    log(`electronegativity: the scan itself failed: ${error?.stack ?? error}`)
    log('electronegativity: FAIL (the scan did not complete)')
    process.exitCode = 1
  }
)
