// The CLI as people expect it (issue 27, part): `--version` and `-V` print the version; a bare
// `eventwatch` prints its help on stdout and succeeds; a wrong flag, a missing argument or an
// unknown command exits 2 (the user's to fix, as every configuration error), not commander's 1.
// Before: `--version` was an unknown option (exit 1), and bare `eventwatch` exited 1.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { homeEnv, ROOT } from '../support/cli'
import { runCli } from '../support/cli-processes'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-cli-conventions-')
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }

describe('the eventwatch command', () => {
  it('prints its version for --version and -V, and exits 0', async () => {
    const env = homeEnv(newDir())
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag], env)
      expect(result, flag).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' })
    }
  })

  it('prints its help on stdout when run bare, and exits 0', async () => {
    const result = await runCli([], homeEnv(newDir()))
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^Usage: eventwatch \[options\] \[command\]/)
    expect(result.stdout).toContain('-V, --version')
    expect(result.stderr).toBe('')
  })

  it('exits 2 for a wrong flag, a missing argument and an unknown command, saying which', async () => {
    const env = homeEnv(newDir())
    const cases: [string[], RegExp][] = [
      [['export', 'sessions', '--bogus'], /unknown option '--bogus'/],
      [['users', 'add', '--role', 'viewer'], /missing required argument 'name'/],
      [['users', 'add', 'alice'], /required option '--role <role>' not specified/],
      [['sync', '--interval', 'often'], /expected seconds from/],
      [['nosuch'], /unknown command 'nosuch'/]
    ]
    for (const [args, said] of cases) {
      const result = await runCli(args, env)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr, args.join(' ')).toMatch(said)
    }
  })
})
