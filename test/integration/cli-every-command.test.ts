// Every command of `eventwatch`, found by walking the commander program (a command added later is
// covered without touching this file), run as a real child process: its --help exits 0 with an
// "Example" section and one default for --db; a wrong flag exits 2 with a one-line cause (the
// flag, or the required option missing, which commander checks first) and where the usage is.
// Before (issue 27, part 4): only backup and store copy had an example; --db's help said two defaults
// (commander's quoted path and "default: the desktop app's"); a wrong flag printed the whole help.
import { describe, expect, it } from 'vitest'
import { allCommands, buildProgram } from '../../src/main/cli/program'
import { homeEnv } from '../support/cli'
import { runCli, type CliResult } from '../support/cli-processes'
import { tempDirs } from '../support/temp-dirs'

const env = homeEnv(tempDirs('eventwatch-every-command-')())
const program = buildProgram()
const commands = [{ path: [] as string[], mandatory: false }, ...[...allCommands(program)].map(({ path, command }) => ({ path, mandatory: command.options.some((o) => o.mandatory) }))]

/** Runs `runs` two at a time (the machine has two cores): each a child process of its own. */
async function inPairs<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items]
  await Promise.all([0, 1].map(async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item)
  }))
}

const named = (path: string[]): string => ['eventwatch', ...path].join(' ')

describe('every eventwatch command', () => {
  it('is found by the walk: the program has commands two levels deep', () => {
    expect(commands.length).toBeGreaterThan(40)
    expect(commands.map((c) => c.path.join(' '))).toEqual(expect.arrayContaining(['sync', 'connections list', 'export viewers', 'completion']))
  })

  it('prints its help with an example, and exits 0', async () => {
    const results = new Map<string, CliResult>()
    await inPairs(commands, async ({ path }) => void results.set(named(path), await runCli([...path, '--help'], env)))
    for (const [name, result] of results) {
      expect(result.code, name).toBe(0)
      expect(result.stderr, name).toBe('')
      expect(result.stdout, name).toMatch(/^Usage: eventwatch/)
      expect(result.stdout, `${name} has an example`).toMatch(/\n\nExamples?:\n {2}\S/)
      // --db says its default once: the value it takes here.
      const db = /--db <file\|url>[\s\S]*?\)\n/.exec(result.stdout)?.[0]
      if (db) expect(db.match(/default/g), name).toHaveLength(1)
    }
  }, 600_000)

  it('refuses a wrong flag with a one-line cause and exit code 2', async () => {
    const results = new Map<string, { result: CliResult; mandatory: boolean }>()
    await inPairs(commands, async ({ path, mandatory }) => void results.set(named(path), { result: await runCli([...path, '--no-such-flag'], env), mandatory }))
    for (const [name, { result, mandatory }] of results) {
      expect(result.code, name).toBe(2)
      expect(result.stdout, name).toBe('')
      const cause = mandatory ? /^error: required option '[^'\n]+' not specified\n/ : /^error: unknown option '--no-such-flag'\n/
      expect(result.stderr, name).toMatch(cause)
      expect(result.stderr.split('\n').slice(1), name).toEqual(['(add --help for the usage)', ''])
    }
  }, 600_000)
})
