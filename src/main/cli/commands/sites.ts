// `eventwatch sites list|set CODE NAME|remove CODE`: names for the service's site codes, kept in
// the cache (the same as Settings → Site names); the viewer table, the breakdowns and the report
// show them beside the number. Through the app API: a name given or forgotten is audited.
import type { Command } from 'commander'
import { plainText } from '../../../shared/plain-text'
import type { SiteName } from '../../../shared/screens'
import { dbOption } from '../db-option'
import { ask, withAppCore, type FlagNames } from '../app-api'
import { CliError } from '../errors'
import { withExamples } from '../examples'
import { jsonOption, printJson } from '../json-output'

interface DbOption {
  db: string
}

const FLAGS: FlagNames = { code: '<code>', name: '<name>' }

/** A site code as the service gives it: a number. */
function siteCode(text: string): number {
  const code = text.trim() === '' ? Number.NaN : Number(text)
  if (!Number.isFinite(code)) throw new CliError(`a site code is a number, as the service gives it (got "${text}").`)
  return code
}

function printNames(names: SiteName[]): void {
  if (names.length === 0) process.stdout.write('No site is named yet: eventwatch sites set CODE NAME\n')
  for (const site of names) process.stdout.write(`${site.code}\t${plainText(site.name)}\n`)
}

export function registerSites(program: Command): void {
  const sites = withExamples(program.command('sites').description("names for the service's site codes, shown beside the numbers"), [
    'eventwatch sites set 311 "London HQ"'
  ])
  const command = (name: string, description: string, example: string): Command =>
    withExamples(sites.command(name).description(description), [example]).addOption(dbOption())

  jsonOption(command('list', 'print every named site: code, a tab, its name', 'eventwatch sites list --json'), 'the sites').action(
    (opts: DbOption & { json?: boolean }) =>
      withAppCore(opts.db, async (core) => {
        const names = await ask(core, 'listSiteNames', {})
        if (opts.json) printJson(names)
        else printNames(names)
      })
  )

  command('set', 'name a site (a new name replaces the old one)', 'eventwatch sites set 311 "London HQ"')
    .argument('<code>')
    .argument('<name>')
    .action((code: string, name: string, opts: DbOption) => {
      const site = siteCode(code)
      return withAppCore(opts.db, async (core) => {
        await ask(core, 'setSiteName', { code: site, name }, FLAGS)
        process.stdout.write(`site ${site} is named "${plainText(name.trim())}"\n`)
      })
    })

  command('remove', "forget a site's name", 'eventwatch sites remove 311')
    .argument('<code>')
    .action((code: string, opts: DbOption) => {
      const site = siteCode(code)
      return withAppCore(opts.db, async (core) => {
        await ask(core, 'setSiteName', { code: site, name: null }, FLAGS)
        process.stdout.write(`site ${site} has no name now\n`)
      })
    })
}
