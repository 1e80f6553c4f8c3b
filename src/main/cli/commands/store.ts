// `eventwatch store copy --from FILE --to postgres://…`: a SQLite cache into an empty PostgreSQL
// database, ids kept, all or nothing (docs/store-copy.md). Safe beside a running serve, sync or
// desktop on FILE: it reads one snapshot and never blocks them; what they write after it is not
// in the copy.
import type { Command } from 'commander'
import { plainText } from '../../../shared/plain-text'
import { readSecretKeyFile, SECRET_KEY_FILE_ENV, SecretKeyFileError, secretKeyFileOf } from '../../core/secrets/key-file'
import { osKeychain } from '../../core/secrets/keychain'
import { isPostgresUrl } from '../../core/store/cache-location'
import { copyCacheToPostgres, type CopyResult } from '../../core/store/copy/copy-cache'
import type { SecretsToSeal } from '../../core/store/copy/keychain-secrets'
import { CliError } from '../errors'
import { withExamples } from '../examples'
import { printJson } from '../json-output'
import { createProgress } from '../progress'
import { progressStream } from '../terminal'

interface CopyFlags {
  from: string
  to: string
  json?: boolean
}

const COUNT = new Intl.NumberFormat('en-US')

export function registerStore(program: Command): void {
  const store = withExamples(program.command('store').description('the cache itself: move it from SQLite to PostgreSQL'), [
    'eventwatch store copy --from ~/.config/eventwatch/eventwatch.db --to postgres://eventwatch@db.internal/eventwatch'
  ])

  store
    .command('copy')
    .description('copy a SQLite cache into an empty PostgreSQL database (ids kept; all or nothing)')
    .requiredOption('--from <file>', 'the SQLite cache file (an older schema is migrated first, as opening it would)')
    .requiredOption('--to <url>', 'postgres://user@host/database: an empty database (created with createdb), PostgreSQL 15 or newer')
    .option('--json', 'print what was copied, table by table, as JSON (docs/cli.md, "JSON output")')
    .addHelpText(
      'after',
      [
        '',
        'The copy is one transaction: it commits only after every table was counted again in',
        'PostgreSQL, and a failure (or Ctrl-C) leaves the database empty. The cache is read as one',
        'snapshot while Eventwatch may go on using it; stop its serve first so that nothing it',
        'writes afterwards is missing from the copy.',
        '',
        `With ${SECRET_KEY_FILE_ENV} set, the connections' and webhooks' secrets in this machine's`,
        'keychain are sealed into the database under that key, in the same transaction; without it',
        'they stay in the keychain, and the copy names them (docs/secrets.md).',
        '',
        'Example:',
        '  eventwatch store copy --from /var/lib/eventwatch/eventwatch.db --to postgres://eventwatch@db.internal/eventwatch',
        ''
      ].join('\n')
    )
    .action(async (flags: CopyFlags) => {
      if (isPostgresUrl(flags.from)) throw new CliError('--from takes the SQLite cache file; the PostgreSQL database goes in --to.')
      if (!isPostgresUrl(flags.to)) throw new CliError(`--to takes a postgres:// URL (postgres://user@host/database), got "${flags.to}".`)
      const stop = new AbortController()
      const onSignal = (): void => stop.abort()
      process.once('SIGINT', onSignal)
      process.once('SIGTERM', onSignal)
      const secrets = secretsToSeal()
      const progress = createProgress(progressStream(process.stderr))
      try {
        const result = await copyCacheToPostgres(flags.from, flags.to, {
          signal: stop.signal,
          ...(secrets ? { secrets } : {}),
          onProgress: ({ table, done, total }) => progress.update({ phase: 'rows', done, total, detail: table })
        })
        progress.done(`Committed: ${COUNT.format(rowsOf(result))} rows in ${result.tables.length} tables.`)
        if (flags.json) printJson(result)
        else process.stdout.write(summary(result, secrets !== undefined))
      } catch (error) {
        if (stop.signal.aborted) throw new CliError('stopped before the copy was complete; nothing was committed, and the PostgreSQL database is empty as before.', 1)
        throw error
      } finally {
        process.off('SIGINT', onSignal)
        process.off('SIGTERM', onSignal)
      }
    })
}

/** With EVENTWATCH_SECRET_KEY_FILE, the keychain's secrets go into the database sealed under it
 *  (a bad key file stops the command first, in words). */
function secretsToSeal(): SecretsToSeal | undefined {
  const keyFile = secretKeyFileOf(process.env)
  if (!keyFile) return undefined
  try {
    return { keychain: osKeychain(), key: readSecretKeyFile(keyFile) }
  } catch (error) {
    if (error instanceof SecretKeyFileError) throw new CliError(`${error.message}; nothing was copied.`)
    throw error
  }
}

const rowsOf = (result: CopyResult): number => result.tables.reduce((sum, table) => sum + table.rows, 0)

function summary(result: CopyResult, keyGiven: boolean): string {
  const width = Math.max(...result.tables.map((t) => t.table.length))
  const lines = [`Copied ${result.from} into ${result.to} (schema ${result.schema}):`]
  if (result.foundSchema < result.schema) {
    lines.splice(0, 0, `Migrated ${result.from} from schema ${result.foundSchema} to ${result.schema} first, as this build does when it opens a cache.`)
  }
  for (const t of result.tables) {
    const left = t.leftOut > 0 ? `  (${COUNT.format(t.leftOut)} left out: ${t.why ?? 'PostgreSQL cannot hold them'})` : ''
    lines.push(`  ${t.table.padEnd(width)}  ${COUNT.format(t.rows).padStart(11)}${left}`)
  }
  lines.push(`Every table was counted again in PostgreSQL before the commit: ${COUNT.format(rowsOf(result))} rows, ids kept.`)
  lines.push(...secretLines(result.secrets, keyGiven))
  return `${lines.join('\n')}\n`
}

/** Where the connections' and webhooks' secrets are now, plainly. */
function secretLines({ sealed, notSealed }: CopyResult['secrets'], keyGiven: boolean): string[] {
  const lines: string[] = []
  if (sealed > 0) lines.push(`Sealed ${sealed} ${sealed === 1 ? 'secret' : 'secrets'} from this machine's keychain into the database under ${SECRET_KEY_FILE_ENV}.`)
  if (notSealed.length === 0) return lines
  const list = notSealed.map((what) => plainText(what)).join('; ')
  if (keyGiven) {
    lines.push(`Not in this machine's keychain, so not sealed: ${list}. Enter each again on the new database (docs/secrets.md).`)
  } else {
    lines.push(
      `These secrets stayed in this machine's keychain: ${list}. A postgres:// database keeps secrets only sealed under ${SECRET_KEY_FILE_ENV} ` +
        '(docs/secrets.md): set it and copy again into an empty database, or enter each again on the new database with it set.'
    )
  }
  return lines
}
