// What a shell needs to complete `eventwatch`, read from the commander program itself (so the
// scripts never fall out of step with it): per command, its subcommands, its options, and what
// each option takes — nothing, a file, any word, or one of its choices.
import type { Command, Option } from 'commander'

/** What an option takes after it. */
export type OptionValue = null | 'file' | 'any' | readonly string[]

export interface CompletionNode {
  /** The words that name the command after `eventwatch` ('' for eventwatch itself). */
  path: string
  /** Its subcommands, and the choices of an argument that has them. */
  commands: string[]
  options: { flags: string[]; value: OptionValue }[]
}

/** Words the scripts put in their tables: plain names, flags and choices only, so no quoting question arises. */
const PLAIN_WORD = /^-{0,2}[A-Za-z0-9][A-Za-z0-9._:-]*$/

function plainWord(word: string): string {
  if (!PLAIN_WORD.test(word)) throw new Error(`completion: "${word}" is not a plain word; the scripts quote none`)
  return word
}

function valueOf(option: Option): OptionValue {
  if (!option.required && !option.optional) return null
  if (option.argChoices) return option.argChoices.map(plainWord)
  return /<file/.test(option.flags) ? 'file' : 'any'
}

export function completionModel(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = []
  const visit = (command: Command, path: string): void => {
    const options = command.options
      .filter((option) => !option.hidden)
      .map((option) => ({ flags: [option.short, option.long].filter((f): f is string => Boolean(f)).map(plainWord), value: valueOf(option) }))
    options.push({ flags: ['-h', '--help'], value: null })
    // An argument with choices (`completion bash|zsh|fish`) completes as its subcommands would.
    const choices = command.registeredArguments.flatMap((argument) => argument.argChoices ?? [])
    nodes.push({ path, commands: [...command.commands.map((c) => c.name()), ...choices].map(plainWord), options })
    for (const sub of command.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name())
  }
  visit(program, '')
  return nodes
}

/** Every (command, flag) that takes a value, with what it takes. */
export function valuedFlags(nodes: readonly CompletionNode[]): { path: string; flag: string; value: Exclude<OptionValue, null> }[] {
  return nodes.flatMap((node) =>
    node.options.flatMap((option) => (option.value === null ? [] : option.flags.map((flag) => ({ path: node.path, flag, value: option.value! }))))
  )
}

/** A value as the scripts' tables give it: '@file', '@any', or the choices. */
export const valueWords = (value: Exclude<OptionValue, null>): string => (value === 'file' ? '@file' : value === 'any' ? '@any' : value.join(' '))
