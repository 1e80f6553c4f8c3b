// `eventwatch users`: the team server's people (issue 17). Run on the server by its administrator,
// through the app API: each change is in the audit log with the OS user who made it. Each token is
// printed once and kept only as a hash.
import { Option, type Command } from 'commander'
import { USER_ROLES, type UserRole } from '../../../shared/team'
import { jsonWithEscapedControls, plainText } from '../../../shared/plain-text'
import { dbOption } from '../db-option'
import { ask, withAppCore, type FlagNames } from '../app-api'
import { CliError } from '../errors'

const FLAGS: FlagNames = { name: '<name>', role: '--role' }

const tokenNotice = (name: string, token: string): string =>
  `Access token for ${plainText(name)} (shown once; give it to them over a safe channel):\n${token}\n`

export function registerUsers(program: Command): void {
  const users = program.command('users').description("the team server's users: operators act on alerts, viewers read")

  users
    .command('add <name>')
    .description('add a user and print their access token (once)')
    .addOption(new Option('--role <role>', 'operator: acknowledge, snooze, mute, alert settings; viewer: read only').choices(USER_ROLES).makeOptionMandatory())
    .addOption(dbOption())
    .action((name: string, opts: { role: UserRole; db: string }) =>
      withAppCore(opts.db, async (core) => {
        const { user, token } = await ask(core, 'addUser', { name, role: opts.role }, FLAGS)
        process.stdout.write(`Added ${plainText(user.name)} (${user.role}).\n${tokenNotice(user.name, token)}`)
      })
    )

  users
    .command('list')
    .description('list the users, their roles and when each was last seen')
    .option('--json', 'print JSON')
    .addOption(dbOption())
    .action((opts: { json?: boolean; db: string }) =>
      withAppCore(opts.db, async (core) => {
        // The team's directory, not a request: a team server's users are never listed to its pages.
        const list = (await core.users?.list()) ?? []
        if (opts.json) return void process.stdout.write(`${jsonWithEscapedControls(list, 2)}\n`)
        if (list.length === 0) return void process.stdout.write('No users yet: eventwatch users add NAME --role operator\n')
        for (const u of list) {
          process.stdout.write(`${plainText(u.name)}\t${u.role}\tlast seen ${u.lastSeenAt ?? 'never'}${u.rotatedAt ? `\ttoken rotated ${u.rotatedAt}` : ''}\n`)
        }
      })
    )

  users
    .command('rotate <name>')
    .description('give a user a new token: the old one, and every browser signed in with it, stop working')
    .addOption(dbOption())
    .action((name: string, opts: { db: string }) =>
      withAppCore(opts.db, async (core) => {
        process.stdout.write(tokenNotice(name, (await ask(core, 'rotateUserToken', { name }, FLAGS)).token))
      })
    )

  users
    .command('remove <name>')
    .description('remove a user: their token and sessions stop working at once')
    .addOption(dbOption())
    .action((name: string, opts: { db: string }) =>
      withAppCore(opts.db, async (core) => {
        if (!(await ask(core, 'removeUser', { name }, FLAGS)).removed) throw new CliError(`there is no user named ${name}.`)
        process.stdout.write(`Removed ${plainText(name)}.\n`)
      })
    )
}
