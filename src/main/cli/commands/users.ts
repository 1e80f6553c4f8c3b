// `eventwatch users`: the team server's people (issue 17). Run on the server by its administrator,
// through the app API: each change is in the audit log with the OS user who made it. Each token is
// printed once and kept only as a hash.
import { Option, type Command } from 'commander'
import { USER_ROLES, type UserRole } from '../../../shared/team'
import { plainText } from '../../../shared/plain-text'
import { dbOption } from '../db-option'
import { ask, withAppCore, type FlagNames } from '../app-api'
import { CliError } from '../errors'
import { withExamples } from '../examples'
import { jsonOption, printJson } from '../json-output'

const FLAGS: FlagNames = { name: '<name>', role: '--role' }

const tokenNotice = (name: string, token: string): string =>
  `Access token for ${plainText(name)} (shown once; give it to them over a safe channel):\n${token}\n`

export function registerUsers(program: Command): void {
  const users = withExamples(program.command('users').description("the team server's users: operators act on alerts, viewers read"), [
    'eventwatch users add alice --role operator --db postgres://eventwatch@db.internal/eventwatch'
  ])
  const command = (nameAndArgs: string, description: string, example: string): Command =>
    withExamples(users.command(nameAndArgs).description(description), [example])

  jsonOption(command('add <name>', 'add a user and print their access token (once)', 'eventwatch users add alice --role operator'), 'the user and their token')
    .addOption(new Option('--role <role>', 'operator: acknowledge, snooze, mute, alert settings; viewer: read only').choices(USER_ROLES).makeOptionMandatory())
    .addOption(dbOption())
    .action((name: string, opts: { role: UserRole; db: string; json?: boolean }) =>
      withAppCore(opts.db, async (core) => {
        const { user, token } = await ask(core, 'addUser', { name, role: opts.role }, FLAGS)
        if (opts.json) return printJson({ user, token })
        process.stdout.write(`Added ${plainText(user.name)} (${user.role}).\n${tokenNotice(user.name, token)}`)
      })
    )

  jsonOption(command('list', 'list the users, their roles and when each was last seen', 'eventwatch users list --json'), 'the users')
    .addOption(dbOption())
    .action((opts: { json?: boolean; db: string }) =>
      withAppCore(opts.db, async (core) => {
        // The team's directory, not a request: a team server's users are never listed to its pages.
        const list = (await core.users?.list()) ?? []
        if (opts.json) return printJson(list)
        if (list.length === 0) return void process.stdout.write('No users yet: eventwatch users add NAME --role operator\n')
        for (const u of list) {
          process.stdout.write(`${plainText(u.name)}\t${u.role}\tlast seen ${u.lastSeenAt ?? 'never'}${u.rotatedAt ? `\ttoken rotated ${u.rotatedAt}` : ''}\n`)
        }
      })
    )

  jsonOption(
    command('rotate <name>', 'give a user a new token: the old one, and every browser signed in with it, stop working', 'eventwatch users rotate alice'),
    'the user\'s name and new token'
  )
    .addOption(dbOption())
    .action((name: string, opts: { db: string; json?: boolean }) =>
      withAppCore(opts.db, async (core) => {
        const { token } = await ask(core, 'rotateUserToken', { name }, FLAGS)
        if (opts.json) printJson({ name, token })
        else process.stdout.write(tokenNotice(name, token))
      })
    )

  command('remove <name>', 'remove a user: their token and sessions stop working at once', 'eventwatch users remove alice')
    .addOption(dbOption())
    .action((name: string, opts: { db: string }) =>
      withAppCore(opts.db, async (core) => {
        if (!(await ask(core, 'removeUser', { name }, FLAGS)).removed) throw new CliError(`there is no user named ${name}.`)
        process.stdout.write(`Removed ${plainText(name)}.\n`)
      })
    )
}
