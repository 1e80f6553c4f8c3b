// `eventwatch audit`: every change made through the app API, newest first, with its author.
import type { Command } from 'commander'
import { jsonWithEscapedControls, plainText } from '../../../shared/plain-text'
import { dbOption } from '../db-option'
import { ask, withAppCore } from '../app-api'
import { integerOption } from '../options'

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('who changed what: connections, webhooks, users, maintenance windows, acknowledgements, snoozes, mutes, settings')
    .option('--limit <n>', 'how many entries', integerOption(1, 1000), 50)
    .option('--json', 'print JSON')
    .addOption(dbOption())
    .action((opts: { limit: number; json?: boolean; db: string }) =>
      // Through the app API, as every face reads it (the team's store behind it).
      withAppCore(opts.db, async (core) => {
        const entries = await ask(core, 'listAudit', { limit: opts.limit })
        if (opts.json) return void process.stdout.write(`${jsonWithEscapedControls(entries, 2)}\n`)
        if (entries.length === 0) return void process.stdout.write('Nothing changed yet.\n')
        for (const e of entries) {
          // A note or a name is anyone's text: made plain, it cannot add a column, a line or an escape.
          const line = [e.at, e.actor, e.action, e.subject ?? '', e.detail ?? ''].map(plainText).join('\t')
          process.stdout.write(`${line.trimEnd()}\n`)
        }
      })
    )
}
