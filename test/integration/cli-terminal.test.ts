// Escape codes only where a terminal takes them (issue 27, part 4): sync's progress line is redrawn
// in place on a terminal (a real pseudo-terminal, made by util-linux's `script`), and written as
// plain lines, with no ESC byte at all, for TERM=dumb, for NO_COLOR and into a pipe. `report` does
// not pour HTML onto a terminal: it refuses in one line (exit 2, the user's to fix) unless given
// --output FILE, and still prints into a pipe.
// Before: TERM=dumb and NO_COLOR on a terminal got the redraws (\r ESC [K), and report printed
// its HTML on the terminal.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLI_BIN, cliEnv, homeEnv, ROOT } from '../support/cli'
import { runCli } from '../support/cli-processes'
import { tempDirs } from '../support/temp-dirs'

const ESC = '\u001b'
const newDir = tempDirs('eventwatch-cli-terminal-')
const home = newDir()
const db = join(home, 'cache.db')

const quoted = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`

/** `eventwatch ARGS` on a pseudo-terminal of its own (stdin, stdout and stderr all on it): what the terminal got, and the exit code. */
function onTerminal(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, CLI_BIN, ...args].map(quoted).join(' ')
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: cliEnv({ ...homeEnv(home), ...env }), stdio: ['pipe', 'pipe', 'pipe'] })
  let screen = ''
  child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()))
  child.stdin.end()
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, screen })))
}

let session: string
beforeAll(async () => {
  const filled = await runCli(['sync', '--once', '--db', db], homeEnv(home))
  expect(filled.code, filled.stderr).toBe(0)
  session = (JSON.parse((await runCli(['export', 'sessions', '--json', '--db', db], homeEnv(home))).stdout) as { eventSessionId: string }[])[0]!.eventSessionId
}, 60_000)

describe.skipIf(!existsSync('/usr/bin/script'))('escape codes', () => {
  it('a terminal gets the progress line redrawn in place', async () => {
    const { code, screen } = await onTerminal(['sync', '--once', '--db', join(newDir(), 'c.db')], { TERM: 'xterm-256color', NO_COLOR: '' })
    expect(code).toBe(0)
    expect(screen).toContain(`\r${ESC}[K`)
  }, 60_000)

  it('TERM=dumb and NO_COLOR on a terminal get plain lines, with no ESC byte', async () => {
    for (const env of [{ TERM: 'dumb', NO_COLOR: '' }, { TERM: 'xterm-256color', NO_COLOR: '1' }]) {
      const { code, screen } = await onTerminal(['sync', '--once', '--db', join(newDir(), 'c.db')], env)
      expect(code, JSON.stringify(env)).toBe(0)
      expect(screen, JSON.stringify(env)).not.toContain(ESC)
      expect(screen).toMatch(/Demo data: 20 sessions, 6 live/)
    }
  }, 60_000)

  it('a pipe gets no ESC byte, from sync, a refusal or the help', async () => {
    for (const args of [['sync', '--once', '--db', join(newDir(), 'c.db')], ['export', 'sessions', '--nope'], ['sync', '--help']]) {
      const result = await runCli(args, { ...homeEnv(home), TERM: 'xterm-256color' })
      expect(result.stdout + result.stderr, args.join(' ')).not.toContain(ESC)
    }
  }, 60_000)
})

describe.skipIf(!existsSync('/usr/bin/script'))('report on a terminal', () => {
  it('refuses HTML on a terminal in one line, exit code 2', async () => {
    const { code, screen } = await onTerminal(['report', '--session', session, '--db', db], { TERM: 'xterm-256color' })
    expect(code).toBe(2)
    expect(screen).toBe('eventwatch: report: HTML is not printed on a terminal: pass --output FILE (or pipe it, e.g. > report.html).\r\n')
  }, 60_000)

  it('writes --output FILE from a terminal, and prints into a pipe', async () => {
    const file = join(newDir(), 'report.html')
    const { code, screen } = await onTerminal(['report', '--session', session, '--db', db, '--output', file], { TERM: 'xterm-256color' })
    expect(code, screen).toBe(0)
    expect(screen).not.toContain('<html')
    expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/)

    const piped = await runCli(['report', '--session', session, '--db', db], homeEnv(home))
    expect(piped.code).toBe(0)
    expect(piped.stdout).toMatch(/^<!doctype html>/)
  }, 60_000)

  it('prints JSON on a terminal (it is text a person can read)', async () => {
    const { code, screen } = await onTerminal(['report', '--session', session, '--db', db, '--json'], { TERM: 'xterm-256color' })
    expect(code).toBe(0)
    expect(JSON.parse(screen.replace(/\r\n/g, '\n'))).toHaveProperty('audience')
  }, 60_000)
})
