// `eventwatch completion fish`: the same tables and walk as the bash and zsh scripts, in fish.
import type { CompletionNode } from './model'
import { valuedFlags, valueWords } from './model'

function table(name: string, rows: [string, string][], otherwise = ''): string {
  const cases = rows.map(([key, words]) => `        case '${key}'\n            printf '%s\\n' ${words}`)
  return [`function ${name}`, '    switch "$argv[1]"', ...cases, ...(otherwise ? [`        case '*'\n            ${otherwise}`] : []), '    end', 'end'].join('\n')
}

export function fishScript(nodes: readonly CompletionNode[], version: string): string {
  const values = table('__eventwatch_value', valuedFlags(nodes).map(({ path, flag, value }) => [`${path}|${flag}`, valueWords(value)]), 'return 1').replace(
    'switch "$argv[1]"',
    'switch "$argv[1]|$argv[2]"'
  )
  return `# fish completion for eventwatch ${version}, made by \`eventwatch completion fish\` from its own commands.
# Installing it: docs/cli.md, "Shell completion". Made again after an upgrade, it knows the new commands.

${table('__eventwatch_commands', nodes.filter((n) => n.commands.length > 0).map((n) => [n.path, n.commands.join(' ')]))}

${table('__eventwatch_options', nodes.map((n) => [n.path, n.options.flatMap((o) => o.flags).join(' ')]))}

# What option $argv[2] of command $argv[1] takes: nothing (status 1), a file (@file), any word (@any), or its choices.
${values}

# The command that the words before the cursor name ('' for eventwatch itself).
function __eventwatch_at
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l at ''
    set -l skip 0
    for word in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case '--*=*'
                continue
            case '-*'
                if __eventwatch_value "$at" $word >/dev/null
                    set skip 1
                end
                continue
        end
        if contains -- $word (__eventwatch_commands "$at")
            set at (string trim -- "$at $word")
        end
    end
    echo $at
end

function __eventwatch_complete
    set -l tokens (commandline -opc)
    set -l at (__eventwatch_at)
    set -l values (__eventwatch_value "$at" "$tokens[-1]")
    if test $status -eq 0
        switch "$values"
            case '@file'
                __fish_complete_path (commandline -ct)
            case '@any'
            case '*'
                printf '%s\\n' $values
        end
        return
    end
    switch (commandline -ct)
        case '-*'
            __eventwatch_options "$at"
        case '*'
            set -l subs (__eventwatch_commands "$at")
            if test (count $subs) -gt 0
                printf '%s\\n' $subs
            else
                __fish_complete_path (commandline -ct)
            end
    end
end

complete -c eventwatch -f -a '(__eventwatch_complete)'
`
}
