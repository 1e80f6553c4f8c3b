// `eventwatch sync`: poll into the cache, once or until Ctrl-C. With no connection configured
// it polls the demo simulator, started in process.
import type { Command } from 'commander'
import { startDemoSource } from '../../core/app/demo-source'
import { defaultDbFile } from '../../core/paths'
import { openDatabase } from '../../core/store/db'
import { Poller, type PollOutcome } from '../../core/sync/poller'
import { secondsOption, untilSignal } from '../options'

interface SyncOptions {
  once?: boolean
  db: string
  interval: number
}

export function registerSync(program: Command): void {
  program
    .command('sync')
    .description('poll the live sessions into the local cache (the demo simulator when no connection is set up)')
    .option('--once', 'make one pass and exit')
    .option('--db <file>', 'SQLite cache file', defaultDbFile())
    .option('--interval <seconds>', 'seconds between polls when continuous', secondsOption(1, 3600), 15)
    .action(async (opts: SyncOptions) => {
      const db = openDatabase(opts.db)
      const source = await startDemoSource(db).catch((error: unknown) => {
        db.close()
        throw error
      })
      const report = (o: PollOutcome): void => {
        const skipped = o.skipped.length ? `, ${o.skipped.length} records skipped` : ''
        const failed = o.failures.length ? `, ${o.failures.length} live sessions failed (${o.failures[0]})` : ''
        process.stderr.write(
          `${new Date(o.at).toISOString()} ${source.target.name}: ${o.listed} sessions listed, ${o.live} live, ` +
            `${o.snapshots} snapshots stored${skipped}${failed} -> ${opts.db}\n`
        )
      }
      const poller = new Poller(db, source.client, {
        connectionId: source.target.id,
        intervalMs: opts.interval * 1000,
        onPolled: report,
        onStatus: (s) => {
          if (s.state === 'error' && s.lastError) process.stderr.write(`poll failed: ${s.lastError}\n`)
        }
      })
      try {
        if (opts.once) await poller.pollOnce()
        else {
          poller.start()
          await untilSignal()
          await poller.stop()
        }
      } finally {
        await source.close()
        db.close()
      }
    })
}
