// `eventwatch sites list|set CODE NAME|remove CODE`: names for the service's site codes, kept in
// the cache (the same as Settings → Site names); the viewer table, the breakdowns and the report
// show them beside the number.
import type { Command } from 'commander'
import { plainText } from '../../../shared/plain-text'
import { defaultDbFile } from '../../core/paths'
import { openDatabase, type Db } from '../../core/store/db'
import { listSiteNames, setSiteName, siteNameProblem } from '../../core/store/site-names'
import { CliError } from '../errors'

interface DbOption {
  db: string
}

function withDb(opts: DbOption, body: (db: Db) => void): void {
  const db = openDatabase(opts.db)
  try {
    body(db)
  } finally {
    db.close()
  }
}

/** A site code as the service gives it: a number. */
function siteCode(text: string): number {
  const code = text.trim() === '' ? Number.NaN : Number(text)
  if (!Number.isFinite(code)) throw new CliError(`a site code is a number, as the service gives it (got "${text}").`)
  return code
}

function printNames(db: Db): void {
  const names = listSiteNames(db)
  if (names.length === 0) process.stdout.write('No site is named yet: eventwatch sites set CODE NAME\n')
  for (const site of names) process.stdout.write(`${site.code}\t${plainText(site.name)}\n`)
}

export function registerSites(program: Command): void {
  const sites = program.command('sites').description("names for the service's site codes, shown beside the numbers")
  const dbOption = (command: Command): Command =>
    command.option('--db <file>', "SQLite cache file (default: the desktop app's; EVENTWATCH_DB overrides)", defaultDbFile())

  dbOption(sites.command('list').description('print every named site: code, a tab, its name')).action((opts: DbOption) => withDb(opts, printNames))

  dbOption(sites.command('set').description('name a site (a new name replaces the old one)').argument('<code>').argument('<name>')).action(
    (code: string, name: string, opts: DbOption) => {
      const site = siteCode(code)
      const problem = siteNameProblem(site, name)
      if (problem) throw new CliError(`${problem}.`)
      withDb(opts, (db) => {
        setSiteName(db, site, name)
        process.stdout.write(`site ${site} is named "${plainText(name.trim())}"\n`)
      })
    }
  )

  dbOption(sites.command('remove').description("forget a site's name").argument('<code>')).action((code: string, opts: DbOption) => {
    const site = siteCode(code)
    withDb(opts, (db) => {
      setSiteName(db, site, null)
      process.stdout.write(`site ${site} has no name now\n`)
    })
  })
}
