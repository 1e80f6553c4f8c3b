// `eventwatch completion bash|zsh|fish` (issue 27, part 4): each script is valid for its shell
// (`bash -n`, `zsh -n`, `fish -n`), and each, run in its shell, completes what the commander program
// has — every command's subcommands, found by walking the program, so a new command is checked
// without touching this file — plus options and an option's choices.
import { execFile } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { allCommands, buildProgram } from '../../src/main/cli/program'
import { homeEnv } from '../support/cli'
import { runCli } from '../support/cli-processes'
import { tempDirs } from '../support/temp-dirs'

const run = promisify(execFile)
const dir = tempDirs('eventwatch-completion-')()
const has = (shell: string): boolean => ['/usr/bin', '/bin'].some((bin) => existsSync(join(bin, shell)))
const program = buildProgram()
/** Every command with subcommands, and what they are, as the program says: [] for eventwatch itself. */
const parents = [
  { path: [] as string[], subcommands: program.commands.map((c) => c.name()) },
  ...[...allCommands(program)].filter(({ command }) => command.commands.length > 0).map(({ path, command }) => ({ path, subcommands: command.commands.map((c) => c.name()) }))
]
const scripts: Record<string, string> = {}

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell], homeEnv(dir))
    expect(result, shell).toMatchObject({ code: 0, stderr: '' })
    scripts[shell] = join(dir, `eventwatch.${shell}`)
    writeFileSync(scripts[shell]!, result.stdout)
  }
}, 60_000)

/** Words a shell offers at the end of `line` (the last word is the one being completed; '' for a new one). */
type Completer = (line: string[]) => Promise<string[]>

const bash: Completer = async (line) => {
  const words = ['eventwatch', ...line].map((w) => `'${w}'`).join(' ')
  const { stdout } = await run('bash', ['-c', `source "$1"; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _eventwatch; printf '%s\\n' "\${COMPREPLY[@]}"`, '_', scripts.bash!])
  return stdout.split('\n').filter(Boolean)
}

// zsh's own compadd filters by the word typed; here it prints what it was given, filtered the same way.
const zsh: Completer = async (line) => {
  const words = ['eventwatch', ...line].map((w) => `'${w}'`).join(' ')
  const script = `compdef() { :; }; source "$1"; compadd() { shift; print -l -- "$@"; }; words=(${words}); CURRENT=\${#words}; _eventwatch`
  const { stdout } = await run('zsh', ['-c', script, '_', scripts.zsh!])
  const typed = line.at(-1) ?? ''
  return stdout.split('\n').filter((w) => w && w.startsWith(typed))
}

const fish: Completer = async (line) => {
  const { stdout } = await run('fish', ['-c', `source $argv[1]; complete -C "${['eventwatch', ...line].join(' ')}"`, scripts.fish!])
  return stdout.split('\n').filter(Boolean).map((w) => w.split('\t')[0]!)
}

describe.each([
  ['bash', bash],
  ['zsh', zsh],
  ['fish', fish]
] as const)('eventwatch completion %s', (shell, complete) => {
  it.skipIf(!has(shell))(`is valid ${shell}`, async () => {
    await expect(run(shell, ['-n', scripts[shell]!])).resolves.toBeDefined()
  })

  it.skipIf(!has(shell))("completes every command's subcommands, as the program has them", async () => {
    for (const { path, subcommands } of parents) expect((await complete([...path, ''])).sort(), path.join(' ')).toEqual([...subcommands].sort())
  }, 120_000)

  it.skipIf(!has(shell))('completes options, their choices and arguments with choices, past an option and its value', async () => {
    expect(await complete(['--db', 'x.db', 'export', 'sessions', '--fo'])).toEqual(['--format'])
    expect((await complete(['export', 'sessions', '--format', ''])).sort()).toEqual(['csv', 'json'])
    expect((await complete(['users', 'add', 'val', '--role', ''])).sort()).toEqual(['operator', 'viewer'])
    expect((await complete(['completion', ''])).sort()).toEqual(['bash', 'fish', 'zsh'])
    expect(await complete(['conn'])).toEqual(['connections'])
  }, 60_000)
})
