// `eventwatch completion bash` and `zsh`: the tables (subcommands, options, what an option takes)
// as shell functions both shells read alike, then each shell's own entry point. The line so far
// is walked from the start: option words are passed over (with the value of one that takes one),
// and each word that is a subcommand of the command reached so far goes one level down.
import type { CompletionNode } from './model'
import { valuedFlags, valueWords } from './model'

function tables(nodes: readonly CompletionNode[]): string {
  const table = (name: string, rows: [string, string][], otherwise = ''): string =>
    [`${name}() {`, '  case "$1" in', ...rows.map(([key, words]) => `    '${key}') echo '${words}' ;;`), ...(otherwise ? [`    *) ${otherwise} ;;`] : []), '  esac', '}'].join('\n')
  return [
    table('_eventwatch_commands', nodes.filter((n) => n.commands.length > 0).map((n) => [n.path, n.commands.join(' ')])),
    table('_eventwatch_options', nodes.map((n) => [n.path, n.options.flatMap((o) => o.flags).join(' ')])),
    '# What option $2 of command $1 takes: nothing (status 1), a file (@file), any word (@any), or one of its choices.',
    table('_eventwatch_value', valuedFlags(nodes).map(({ path, flag, value }) => [`${path}|${flag}`, valueWords(value)]), 'return 1').replace(
      'case "$1" in',
      'case "$1|$2" in'
    ),
    // Not `path`: zsh ties that name to PATH.
    `# The command that the words before the cursor name ('' for eventwatch itself).
_eventwatch_at() {
  local at='' skip='' word sub
  for word in "$@"; do
    if [ -n "$skip" ]; then skip=''; continue; fi
    case "$word" in
      --*=*) continue ;;
      -*) _eventwatch_value "$at" "$word" >/dev/null && skip=1; continue ;;
    esac
    for sub in $(_eventwatch_commands "$at"); do
      if [ "$sub" = "$word" ]; then at="\${at:+$at }$word"; break; fi
    done
  done
  echo "$at"
}`
  ].join('\n\n')
}

const header = (shell: string, version: string): string =>
  `# ${shell} completion for eventwatch ${version}, made by \`eventwatch completion ${shell}\` from its own commands.\n` +
  '# Installing it: docs/cli.md, "Shell completion". Made again after an upgrade, it knows the new commands.'

export function bashScript(nodes: readonly CompletionNode[], version: string): string {
  return `${header('bash', version)}

${tables(nodes)}

_eventwatch() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" at values
  at="$(_eventwatch_at "\${COMP_WORDS[@]:1:COMP_CWORD-1}")"
  COMPREPLY=()
  if values="$(_eventwatch_value "$at" "$prev")"; then
    case "$values" in
      @file) COMPREPLY=($(compgen -f -- "$cur")) ;;
      @any) ;;
      *) COMPREPLY=($(compgen -W "$values" -- "$cur")) ;;
    esac
    return 0
  fi
  case "$cur" in
    -*) COMPREPLY=($(compgen -W "$(_eventwatch_options "$at")" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -W "$(_eventwatch_commands "$at")" -- "$cur")) ;;
  esac
}

# Where nothing of eventwatch's fits (a FILE argument), bash completes file names.
complete -o default -F _eventwatch eventwatch
`
}

export function zshScript(nodes: readonly CompletionNode[], version: string): string {
  return `#compdef eventwatch
${header('zsh', version)}

${tables(nodes)}

_eventwatch() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" at values subs
  at="$(_eventwatch_at "\${(@)words[2,CURRENT-1]}")"
  if values="$(_eventwatch_value "$at" "$prev")"; then
    case "$values" in
      @file) _files ;;
      @any) _message 'a value' ;;
      *) compadd -- \${=values} ;;
    esac
    return
  fi
  case "$cur" in
    -*) compadd -- \${=$(_eventwatch_options "$at")} ;;
    *)
      subs="$(_eventwatch_commands "$at")"
      if [ -n "$subs" ]; then compadd -- \${=subs}; else _files; fi
      ;;
  esac
}

# As a file in $fpath (autoloaded, called by name), or sourced after compinit.
if [ "$funcstack[1]" = "_eventwatch" ]; then
  _eventwatch "$@"
else
  compdef _eventwatch eventwatch
fi
`
}
