// `eventwatch audit`: every change made through the app API, newest first, with its author.
// Read a page at a time (by the entries' ids) and printed as each page comes: --limit may ask for
// the whole log, and memory holds one page of it.
import type { Command } from 'commander'
import { plainText } from '../../../shared/plain-text'
import type { AuditEntry } from '../../../shared/team'
import type { AppCore } from '../../core/app/types'
import { dbOption } from '../db-option'
import { ask, withAppCore } from '../app-api'
import { withExamples } from '../examples'
import { ChunkedOutput, jsonOption, writeJsonArray } from '../json-output'
import { integerOption } from '../options'
import { writingToStdout } from '../stdout-pipe'

/** The contract's largest page of the audit list. */
const AUDIT_PAGE = 1000

/** The newest `limit` entries, a page at a time, each page older than the last. */
async function* auditPages(core: AppCore, limit: number): AsyncGenerator<readonly AuditEntry[]> {
  let before: number | undefined
  for (let left = limit; left > 0; ) {
    const page = await ask(core, 'listAudit', { limit: Math.min(left, AUDIT_PAGE), ...(before === undefined ? {} : { before }) })
    if (page.length > 0) yield page
    if (page.length < Math.min(left, AUDIT_PAGE)) return
    left -= page.length
    before = page.at(-1)!.id
  }
}

export function registerAudit(program: Command): void {
  const command = program
    .command('audit')
    .description('who changed what: connections, webhooks, users, maintenance windows, acknowledgements, snoozes, mutes, settings')
    .option('--limit <n>', 'how many entries, newest first', integerOption(1, 100_000_000), 50)
    .addOption(dbOption())
  withExamples(jsonOption(command, 'the entries (an array, written as it is read)'), ['eventwatch audit --limit 1000 --json | jq \'.[] | select(.actor == "alice")\''])
  command.action((opts: { limit: number; json?: boolean; db: string }) =>
    // Through the app API, as every face reads it (the team's store behind it).
    withAppCore(opts.db, (core) =>
      writingToStdout(async () => {
        const out = new ChunkedOutput()
        if (opts.json) await writeJsonArray(out, auditPages(core, opts.limit))
        else await writeLines(out, auditPages(core, opts.limit))
        await out.flush()
      })
    )
  )
}

async function writeLines(out: ChunkedOutput, pages: AsyncIterable<readonly AuditEntry[]>): Promise<void> {
  let any = false
  for await (const page of pages) {
    for (const e of page) {
      // A note or a name is anyone's text: made plain, it cannot add a column, a line or an escape.
      const line = [e.at, e.actor, e.action, e.subject ?? '', e.detail ?? ''].map(plainText).join('\t')
      await out.write(`${line.trimEnd()}\n`)
      any = true
    }
  }
  if (!any) await out.write('Nothing changed yet.\n')
}
