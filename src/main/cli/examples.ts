// An "Example:" section at the end of a command's --help: what a first use looks like, to copy.
import type { Command } from 'commander'

export function withExamples<C extends Command>(command: C, lines: readonly string[]): C {
  const title = lines.length === 1 ? 'Example' : 'Examples'
  command.addHelpText('after', `\n${title}:\n${lines.map((line) => `  ${line}`).join('\n')}\n`)
  return command
}
