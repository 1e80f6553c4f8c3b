// `eventwatch completion bash|zsh|fish`: a completion script for the shell, made from this
// program's own commands and options (cli/completion/), so it knows exactly what this version
// takes. How to install each: docs/cli.md, "Shell completion".
import { Argument, type Command } from 'commander'
import { version } from '../../../../package.json'
import { completionModel } from '../completion/model'
import { fishScript } from '../completion/fish'
import { bashScript, zshScript } from '../completion/posix'
import { withExamples } from '../examples'

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const
type Shell = keyof typeof SHELLS

export function registerCompletion(program: Command): void {
  withExamples(program.command('completion').description('print a completion script for bash, zsh or fish'), [
    'eventwatch completion bash > ~/.local/share/bash-completion/completions/eventwatch',
    'eventwatch completion zsh > "${fpath[1]}/_eventwatch"',
    'eventwatch completion fish > ~/.config/fish/completions/eventwatch.fish'
  ])
    .addArgument(new Argument('<shell>', 'the shell').choices(Object.keys(SHELLS)))
    .action((shell: Shell) => {
      process.stdout.write(SHELLS[shell](completionModel(program), version))
    })
}
