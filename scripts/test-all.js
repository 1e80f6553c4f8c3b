#!/usr/bin/env node
// `npm test`: the whole truth about the tree, in one command.
//
//   lint (eslint) → typecheck (tsc + svelte-check) → security (electronegativity)
//   → build (electron-vite) → unit + integration (vitest)
//   → end to end (playwright, Debian's chromium)
//
// Every stage runs even if an earlier one failed (so the totals are complete), except the
// end-to-end tests, which need the build. Lint, typecheck, security and build count as one
// check each; Vitest and Playwright count their tests, read from their JSON reports. A stage
// that dies without a report counts as one failure. The last line printed is always
//
//   N passed, N failed[, N skipped]
//
// and the exit code is non-zero if anything failed.
//
// The keychain tests need a Secret Service. On Linux, when there is no D-Bus session or no
// keyring answers on it, this script re-runs itself under `dbus-run-session` with a
// gnome-keyring-daemon unlocked by a throwaway password. The stages always run with HOME and
// XDG_RUNTIME_DIR pointed at fresh private temporary directories (removed afterwards), so
// nothing touches the user's real home, keyring files or browser profile.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const BIN = path.join(ROOT, 'node_modules', '.bin')
const RESULTS = path.join(ROOT, 'test-results')
const VITEST_JSON = path.join(RESULTS, 'vitest.json')
// Must match the json reporter's outputFile in playwright.config.ts.
const PLAYWRIGHT_JSON = path.join(RESULTS, 'playwright.json')

/** Set in the re-executed child, which runs inside the private D-Bus/keyring session. */
const SESSION_FLAG = 'EVENTWATCH_TEST_SESSION'
/** Set when this process (or its parent) made the temporary HOME/XDG_RUNTIME_DIR. */
const TMP_FLAG = 'EVENTWATCH_TEST_TMPDIRS'
/** Where the re-executed child notes that it printed its totals (see reexecInKeyringSession). */
const DONE_FILE = 'EVENTWATCH_TEST_DONE_FILE'

const log = (line = '') => process.stdout.write(`${line}\n`)
const note = (line) => log(`test-all: ${line}`)

process.chdir(ROOT)

// ---------------------------------------------------------------------------------------------
// Private environment: temp HOME/XDG_RUNTIME_DIR and a D-Bus session with an unlocked keyring

function which(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, name)
    try {
      fs.accessSync(candidate, fs.constants.X_OK)
      if (fs.statSync(candidate).isFile()) return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

function makePrivateDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  fs.chmodSync(dir, 0o700)
  return dir
}

function makeTempDirs() {
  const home = makePrivateDir('eventwatch-test-home-')
  const runtime = makePrivateDir('eventwatch-test-runtime-')
  return { home, runtime }
}

function removeTempDirs(dirs) {
  for (const dir of [dirs.home, dirs.runtime]) {
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
    } catch {
      // a leftover temp dir is not worth failing the run for
    }
  }
}

/**
 * Does a Secret Service answer on the current session bus, and can it store, read and delete
 * a secret? Asked in a child process (with a timeout) because a locked keyring may wait for a
 * prompt that never comes. Returns 'usable', 'unusable' or 'unknown' (keytar cannot load).
 */
function probeSecretService() {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) return 'unusable'
  const script = `
    let keytar
    try { keytar = require('keytar') } catch { process.exit(2) }
    const service = 'eventwatch-test-probe', account = 'probe-' + process.pid
    ;(async () => {
      await keytar.setPassword(service, account, 'probe')
      const value = await keytar.getPassword(service, account)
      await keytar.deletePassword(service, account)
      process.exit(value === 'probe' ? 0 : 1)
    })().catch(() => process.exit(1))
  `
  const probe = spawnSync(process.execPath, ['-e', script], {
    cwd: ROOT,
    stdio: 'ignore',
    timeout: 10_000,
    env: process.env,
  })
  if (probe.status === 0) return 'usable'
  if (probe.status === 2) return 'unknown'
  return 'unusable'
}

/**
 * Re-run this script inside `dbus-run-session` with an unlocked throwaway keyring.
 *
 * The test run writes to the real stderr (passed down as fd 3); what the D-Bus and keyring
 * daemons say goes through a pipe this process forwards while the session lives, so a daemon
 * that outlives the session cannot print after the final totals line.
 */
function reexecInKeyringSession(tmp) {
  const password = randomBytes(18).toString('base64url')
  const doneFile = path.join(tmp.runtime, 'test-all.done')
  const inner = [
    'printf %s "$EVENTWATCH_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
    'unset EVENTWATCH_KEYRING_PASSWORD',
    'exec "$0" "$@" 2>&3 3>&-',
  ].join('; ')
  const child = spawn(
    'dbus-run-session',
    ['--', 'sh', '-c', inner, process.execPath, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      cwd: ROOT,
      stdio: ['inherit', 'inherit', 'pipe', 2],
      env: {
        ...process.env,
        [SESSION_FLAG]: '1',
        [TMP_FLAG]: '1',
        [DONE_FILE]: doneFile,
        HOME: tmp.home,
        XDG_RUNTIME_DIR: tmp.runtime,
        EVENTWATCH_KEYRING_PASSWORD: password,
      },
    },
  )
  let pending = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      // dbus-daemon as root in a container cannot raise its fd limit: harmless, and alarming.
      if (!/Failed to set fd limit/.test(line)) process.stderr.write(`${line}\n`)
    }
  })
  const forward = (signal) => child.kill(signal)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  child.on('error', (error) => {
    removeTempDirs(tmp)
    log(`test-all: could not start dbus-run-session: ${error.message}`)
    log('0 passed, 1 failed')
    process.exit(1)
  })
  child.on('exit', (code, signal) => {
    // Not 'close': a daemon left behind may hold the pipe open. Stop listening to it.
    child.stderr.destroy()
    const finished = fs.existsSync(doneFile)
    removeTempDirs(tmp)
    const status = code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)
    if (!finished) {
      log(`test-all: the run inside the D-Bus session did not finish (dbus-run-session ${signal ? `killed by ${signal}` : `exited with ${code}`})`)
      log('0 passed, 1 failed')
      process.exit(status || 1)
    }
    process.exit(status)
  })
}

/**
 * Decide where the stages run. Returns false when this process has handed over to a
 * re-executed child (and must do nothing more), true when it should run the stages itself.
 */
function prepareEnvironment() {
  const insideOurSession = process.env[SESSION_FLAG] === '1'
  let tmp
  if (process.env[TMP_FLAG] !== '1') {
    tmp = makeTempDirs()
  }

  if (process.platform === 'linux' && !insideOurSession) {
    const state = probeSecretService()
    if (state !== 'usable' && !(state === 'unknown' && process.env.DBUS_SESSION_BUS_ADDRESS)) {
      const missing = [
        ['dbus-run-session', 'dbus'],
        ['gnome-keyring-daemon', 'gnome-keyring'],
      ].filter(([command]) => !which(command))
      if (missing.length === 0) {
        note('no usable Secret Service here; running inside a private D-Bus session with a throwaway keyring')
        reexecInKeyringSession(tmp ?? makeTempDirs())
        return false
      }
      const list = missing.map(([command, pkg]) => `${command} (apt-get install ${pkg})`).join(' and ')
      note(`no Secret Service, and ${list} not found to start one; continuing without a keyring — keychain tests will fail`)
    }
  }

  if (insideOurSession && process.platform === 'linux') {
    // The daemon forks before it has claimed its bus name: give it a moment.
    let state = probeSecretService()
    for (let i = 0; i < 10 && state === 'unusable'; i++) {
      spawnSync('sleep', ['0.3'])
      state = probeSecretService()
    }
    if (state === 'unusable') note('the throwaway keyring did not answer; keychain tests will fail')
  }

  if (tmp) {
    process.env.HOME = tmp.home
    process.env.XDG_RUNTIME_DIR = tmp.runtime
    process.env[TMP_FLAG] = '1'
    process.on('exit', () => removeTempDirs(tmp))
  }
  return true
}

// ---------------------------------------------------------------------------------------------
// Stages

/** Run a local binary with inherited output; resolves to its exit code (127: did not start). */
function runNode(script) {
  log(`$ node ${path.relative(ROOT, script)}`)
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { cwd: ROOT, stdio: 'inherit', env: process.env })
    child.on('error', () => resolve(127))
    child.on('exit', (code) => resolve(code ?? 1))
  })
}

function run(tool, args) {
  const command = path.join(BIN, tool)
  log(`$ ${tool} ${args.join(' ')}`)
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env: process.env })
    child.on('error', (error) => {
      log(`test-all: could not run ${tool}: ${error.message}`)
      resolve(127)
    })
    child.on('exit', (code, signal) => {
      if (signal) log(`test-all: ${tool} was killed by ${signal}`)
      resolve(code ?? 1)
    })
  })
}

function header(title) {
  log()
  log(`━━━━ ${title} ${'━'.repeat(Math.max(4, 72 - title.length))}`)
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}

function removeFile(file) {
  fs.rmSync(file, { force: true })
}

/** Vitest's JSON report → counts. A test file that fails to load counts as one failure. */
function countVitest(report, exitCode) {
  if (!report || typeof report !== 'object') return { passed: 0, failed: 1, skipped: 0, note: 'no JSON report' }
  let passed = Number(report.numPassedTests) || 0
  let failed = Number(report.numFailedTests) || 0
  const skipped = (Number(report.numPendingTests) || 0) + (Number(report.numTodoTests) || 0)
  const notes = []
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'),
  )
  if (brokenFiles.length > 0) {
    failed += brokenFiles.length
    notes.push(`${brokenFiles.length} file(s) failed outside any test`)
  }
  if (exitCode !== 0 && failed === 0) {
    failed = 1
    notes.push(`vitest exited with ${exitCode} (e.g. unhandled errors or no test files)`)
  }
  const flaky = vitestFlaky(report).length
  if (flaky > 0) notes.push(`${flaky} flaky (passed on retry)`)
  return { passed, failed, skipped, note: notes.join('; ') }
}

/** The first line of a failure message, without terminal colours, cut to fit one line. */
function firstLine(message) {
  const text = stripVTControlCharacters(String(message ?? '')).trim().split('\n')[0] ?? ''
  return text.length > 160 ? `${text.slice(0, 157)}...` : text
}

/** Vitest's JSON report → "file › test: first line of the failure" for each failed test. */
function vitestFailures(report) {
  const out = []
  for (const file of report?.testResults ?? []) {
    const name = path.relative(ROOT, String(file.name ?? ''))
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed')
    for (const test of failed) out.push(`${name} › ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`)
    if (file.status === 'failed' && failed.length === 0) out.push(`${name}: ${firstLine(file.message)}`)
  }
  return out
}

/** Tests that passed only on a retry (CI retries once): they passed, and failed before. */
function vitestFlaky(report) {
  const out = []
  for (const file of report?.testResults ?? []) {
    const name = path.relative(ROOT, String(file.name ?? ''))
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed' && (test.failureMessages ?? []).length > 0) {
        out.push(`${name} › ${test.fullName ?? test.title}: flaky, first failed with ${firstLine(test.failureMessages[0])}`)
      }
    }
  }
  return out
}

/** Playwright's JSON report → the same, for tests whose outcome was unexpected. */
function playwrightFailures(report) {
  const out = []
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue
        const error = (test.results ?? []).map((r) => r.error?.message).find(Boolean)
        const flaky = test.status === 'flaky' ? 'flaky, first failed with ' : ''
        out.push(`${spec.file ?? trail} › ${spec.title}: ${flaky}${firstLine(error)}`)
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.file ?? trail)
  }
  for (const suite of report?.suites ?? []) walk(suite, suite.file ?? '')
  for (const error of report?.errors ?? []) out.push(`playwright: ${firstLine(error.message)}`)
  return out
}

/** Playwright's JSON report → counts. Flaky (failed, then passed on retry) counts as passed. */
function countPlaywright(report, exitCode) {
  if (!report || typeof report !== 'object' || !report.stats) {
    return { passed: 0, failed: 1, skipped: 0, note: 'no JSON report' }
  }
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats
  let failed = unexpected
  const notes = []
  const errors = Array.isArray(report.errors) ? report.errors.length : 0
  if (errors > 0) {
    failed += errors
    notes.push(`${errors} error(s) outside tests`)
  }
  if (exitCode !== 0 && failed === 0) {
    failed = 1
    notes.push(`playwright exited with ${exitCode}`)
  }
  if (flaky > 0) notes.push(`${flaky} flaky (passed on retry)`)
  return { passed: expected + flaky, failed, skipped, note: notes.join('; ') }
}

/** One row per stage: { name, passed, failed, skipped, note, ms }. */
const rows = []

/** Tell a parent waiting outside the D-Bus session that the totals line is being printed. */
function markDone() {
  const file = process.env[DONE_FILE]
  if (!file) return
  try {
    fs.writeFileSync(file, 'done\n')
  } catch {
    // the parent will then report the run as unfinished
  }
}

function totalsLine() {
  const total = { passed: 0, failed: 0, skipped: 0 }
  for (const row of rows) {
    total.passed += row.passed
    total.failed += row.failed
    total.skipped += row.skipped
  }
  const line = `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`
  return { total, line }
}

async function main() {
  const started = Date.now()
  const record = (name, counts, ms) => rows.push({ name, ...counts, ms })
  const check = (ok, note = '') => ({ passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, note })
  const timed = async (fn) => {
    const t = Date.now()
    const value = await fn()
    return [value, Date.now() - t]
  }

  fs.mkdirSync(RESULTS, { recursive: true })

  header('lint: eslint')
  {
    const [code, ms] = await timed(() => run('eslint', ['.']))
    record('lint', check(code === 0), ms)
  }

  header('typecheck: tsc (app, benchmarks) + svelte-check')
  {
    const [codes, ms] = await timed(async () => [
      await run('tsc', ['--noEmit', '-p', 'tsconfig.json']),
      // The benchmarks call the core's handlers: a changed signature must fail here, not at npm run bench.
      await run('tsc', ['--noEmit', '-p', 'scripts/bench']),
      await run('svelte-check', ['--tsconfig', './tsconfig.renderer.json', '--fail-on-warnings']),
    ])
    const failedParts = ['tsc', 'tsc (bench)', 'svelte-check'].filter((_, i) => codes[i] !== 0)
    record('typecheck', check(failedParts.length === 0, failedParts.length ? `${failedParts.join(', ')} failed` : ''), ms)
  }

  header('security: electronegativity')
  {
    // One check: HIGH/MEDIUM findings without an explained inline suppression fail it.
    const [code, ms] = await timed(() => runNode(path.join(ROOT, 'scripts', 'electronegativity.js')))
    record('security', check(code === 0, code === 0 ? '' : 'see the findings above'), ms)
  }

  header('build: electron-vite')
  let built
  {
    const [code, ms] = await timed(async () => {
      const app = await run('electron-vite', ['build'])
      // The CLI bundle: the tests then run what a built install runs.
      return app === 0 ? runNode(path.join(ROOT, 'scripts', 'build-cli.js')) : app
    })
    const rendererBuilt = fs.existsSync(path.join(ROOT, 'out', 'renderer', 'index.html'))
    built = code === 0 && rendererBuilt
    record('build', check(built, code === 0 && !rendererBuilt ? 'out/renderer/index.html missing' : ''), ms)
  }

  header('unit + integration: vitest')
  let vitestReport
  {
    removeFile(VITEST_JSON)
    const [code, ms] = await timed(() =>
      run('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.relative(ROOT, VITEST_JSON)}`]),
    )
    vitestReport = readJson(VITEST_JSON)
    record('vitest', { ...countVitest(vitestReport, code), failures: [...vitestFailures(vitestReport), ...vitestFlaky(vitestReport)] }, ms)
  }

  header('end to end: playwright')
  if (!built) {
    log('test-all: skipped — the build failed, and the end-to-end tests need out/renderer')
    record('playwright', { passed: 0, failed: 1, skipped: 0, note: 'not run: the build failed' }, 0)
  } else {
    removeFile(PLAYWRIGHT_JSON)
    const [code, ms] = await timed(() => run('playwright', ['test']))
    const report = readJson(PLAYWRIGHT_JSON)
    record('playwright', { ...countPlaywright(report, code), failures: playwrightFailures(report) }, ms)
  }
  // Playwright empties test-results/ when it starts: put the Vitest report back beside its own.
  if (vitestReport && !fs.existsSync(VITEST_JSON)) {
    fs.mkdirSync(RESULTS, { recursive: true })
    fs.writeFileSync(VITEST_JSON, JSON.stringify(vitestReport))
  }

  header('summary')
  for (const row of rows) {
    const status = row.failed > 0 ? 'FAIL' : 'ok  '
    const counts = `${row.passed} passed, ${row.failed} failed${row.skipped ? `, ${row.skipped} skipped` : ''}`
    const seconds = `${(row.ms / 1000).toFixed(1)}s`
    log(`${status} ${row.name.padEnd(11)} ${counts.padEnd(34)} ${seconds.padStart(7)}${row.note ? `  (${row.note})` : ''}`)
  }
  // Name what failed here too: a CI log is often read from its tail only.
  const failures = rows.flatMap((row) => row.failures ?? [])
  if (failures.length > 0) {
    log('failed, or flaky:')
    for (const failure of failures.slice(0, 20)) log(`  ✗ ${failure}`)
    if (failures.length > 20) log(`  … and ${failures.length - 20} more`)
  }
  log(`reports: ${path.relative(ROOT, VITEST_JSON)}, ${path.relative(ROOT, PLAYWRIGHT_JSON)}; total time ${((Date.now() - started) / 1000).toFixed(1)}s`)
  const { total, line } = totalsLine()
  markDone()
  log(line)
  return total.failed > 0 ? 1 : 0
}

if (prepareEnvironment()) {
  main().then(
    (code) => {
      process.exitCode = code
    },
    (error) => {
      log(`test-all: the runner itself failed: ${error?.stack ?? error}`)
      rows.push({ name: 'runner', passed: 0, failed: 1, skipped: 0, note: 'crashed', ms: 0 })
      markDone()
      log(totalsLine().line)
      process.exitCode = 1
    },
  )
}
