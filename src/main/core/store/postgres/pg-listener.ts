// The PostgreSQL store's ear (docs/scaling-plan.md section 3, "Recovery"): one client of its own,
// outside the pool (LISTEN belongs to a session, and a pooled client goes back to other work),
// opened at the first listen. It LISTENs on every channel someone listens to. When the connection
// drops (the server restarted, pg_terminate_backend, the network) it says so once, tries again
// with back-off until it is back or the store closes, LISTENs again, and tells each listener it is
// back: what was notified meanwhile is lost, and the listener reads what it missed from the rows.
import pg from 'pg'
import { sleep } from '../../net/abort'
import type { NotificationListener, Notifications, NotifyChannel } from '../interface/notifications'
import { checkChannel } from '../notify-channels'
import { storeClosed } from '../sqlite/unit-of-work-error'
import { pgFault } from './pg-faults'

/** How the listening session shows in pg_stat_activity (application_name). */
export const LISTENER_APPLICATION_NAME = 'eventwatch listener'

export interface ListenerOptions {
  /** The wait before trying again after a drop, doubled at each failed try (with jitter)… */
  firstDelayMs?: number
  /** …up to this. */
  maxDelayMs?: number
}

interface Session {
  client: pg.Client
  /** The channels this session LISTENs on. */
  channels: Set<NotifyChannel>
}

/** A promise settled from outside; its rejection never goes unhandled. */
function deferred(): { promise: Promise<void>; resolve(): void; reject(error: Error): void } {
  let resolve!: () => void
  let reject!: (error: Error) => void
  const promise = new Promise<void>((yes, no) => {
    resolve = yes
    reject = no
  })
  promise.catch(() => undefined)
  return { promise, resolve, reject }
}

/** Calls every listener, each in its own try: a throwing one hurts only itself. */
function tell(listeners: Iterable<NotificationListener>, call: (listener: NotificationListener) => void): void {
  for (const listener of [...listeners]) {
    try {
      call(listener)
    } catch {
      // the listener's own fault: the others still hear
    }
  }
}

export class PgListener implements Notifications {
  private readonly listeners = new Map<NotifyChannel, Set<NotificationListener>>()
  /** Listeners that were listening: told `resumed` at each reconnection. */
  private readonly heard = new Set<NotificationListener>()
  private readonly stopping = new AbortController()
  /** Settles when the store closes: what a session waits on besides its drop. */
  private readonly stopped = new Promise<void>((resolve) => this.stopping.signal.addEventListener('abort', () => resolve(), { once: true }))
  private session: Session | null = null
  private running: Promise<void> | null = null
  /** Settles when the next session is up (or rejects when the store closes): what a listen waits on while down. */
  private nextSession = deferred()

  constructor(
    private readonly url: string,
    /** The database, named without its password. */
    private readonly database: string,
    private readonly options: ListenerOptions = {}
  ) {}

  async listen(channel: NotifyChannel, listener: NotificationListener): Promise<() => Promise<void>> {
    checkChannel(channel)
    if (this.stopping.signal.aborted) throw storeClosed()
    const listening = this.listeners.get(channel) ?? new Set<NotificationListener>()
    this.listeners.set(channel, listening.add(listener))
    this.running ??= this.run()
    try {
      await this.listeningOn(channel)
    } catch (error) {
      this.forget(channel, listener)
      throw error
    }
    this.heard.add(listener)
    return () => this.unlisten(channel, listener)
  }

  /** Stops listening, ends the connection and every wait on it. */
  async close(): Promise<void> {
    this.stopping.abort()
    this.nextSession.reject(storeClosed())
    await this.running
  }

  /** Resolves once a session LISTENs on `channel`; while down, waits for the next session. */
  private async listeningOn(channel: NotifyChannel): Promise<void> {
    for (;;) {
      const session = this.session
      if (session?.channels.has(channel)) return
      if (session) {
        try {
          await session.client.query(`LISTEN ${channel}`)
          session.channels.add(channel)
          return
        } catch {
          // This session is going down: the next one LISTENs on every channel.
        }
      }
      if (this.stopping.signal.aborted) throw storeClosed()
      await this.nextSession.promise
    }
  }

  private async unlisten(channel: NotifyChannel, listener: NotificationListener): Promise<void> {
    if (!this.forget(channel, listener)) return
    const session = this.session
    if (session?.channels.delete(channel)) await session.client.query(`UNLISTEN ${channel}`).catch(() => undefined)
  }

  /** Drops `listener`; true when nobody listens on `channel` any more. */
  private forget(channel: NotifyChannel, listener: NotificationListener): boolean {
    this.heard.delete(listener)
    const listening = this.listeners.get(channel)
    if (!listening?.delete(listener) || listening.size > 0) return false
    this.listeners.delete(channel)
    return true
  }

  /** Sessions one after another until the store closes: connect, LISTEN, wait for the drop, back off. */
  private async run(): Promise<void> {
    const signal = this.stopping.signal
    let failures = 0
    let outageSaid = false
    let wasUp = false
    const up = (): void => {
      failures = 0
      outageSaid = false
      wasUp = true
    }
    while (!signal.aborted) {
      wasUp = false
      try {
        await this.oneSession(signal, up)
      } catch (error) {
        if (signal.aborted) break
        if (!outageSaid) {
          outageSaid = true
          const cause = this.inWords(error, wasUp)
          tell(this.allListeners(), (listener) => listener.dropped?.(cause))
        }
        failures++
        await sleep(this.delay(failures), signal).catch(() => undefined)
      }
    }
  }

  /** One session: up (`up()` is called), listening, until it drops (rejects with why) or the
   *  store closes (resolves). */
  private async oneSession(signal: AbortSignal, up: () => void): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: LISTENER_APPLICATION_NAME, keepAlive: true })
    const dropped = new Promise<never>((_, reject) => {
      client.on('error', reject)
      client.on('end', () => reject(new Error('the server ended the connection')))
    })
    dropped.catch(() => undefined)
    const end = (): void => void client.end().catch(() => undefined)
    signal.addEventListener('abort', end, { once: true })
    try {
      client.on('notification', (message) => {
        const payload = message.payload ?? ''
        tell(this.listeners.get(message.channel as NotifyChannel) ?? [], (listener) => listener.notified(payload))
      })
      await Promise.race([client.connect(), dropped])
      const channels = new Set<NotifyChannel>()
      for (const channel of [...this.listeners.keys()]) {
        await Promise.race([client.query(`LISTEN ${channel}`), dropped])
        channels.add(channel)
      }
      if (signal.aborted) return
      // Those that listened before this session missed what was sent while it was down.
      const missed = [...this.heard]
      this.session = { client, channels }
      up()
      const woken = this.nextSession
      this.nextSession = deferred()
      woken.resolve()
      tell(missed, (listener) => listener.resumed())
      await Promise.race([dropped, this.stopped])
    } finally {
      signal.removeEventListener('abort', end)
      if (this.session?.client === client) this.session = null
      end()
    }
  }

  private allListeners(): NotificationListener[] {
    return [...this.listeners.values()].flatMap((listening) => [...listening])
  }

  /** Why there is no listening connection (`dropped`: it was up), in one sentence. */
  private inWords(error: unknown, dropped: boolean): Error {
    const why = pgFault(error, this.database)?.message ?? (error instanceof Error ? error.message : String(error))
    return new Error(
      dropped
        ? `the connection listening for notifications on ${this.database} dropped (${why}); reconnecting`
        : `cannot listen for notifications on ${this.database} (${why}); trying again`
    )
  }

  /** The back-off before the next try: doubling from firstDelayMs to maxDelayMs, with jitter. */
  private delay(failures: number): number {
    const first = this.options.firstDelayMs ?? 250
    const max = this.options.maxDelayMs ?? 10_000
    const ceiling = Math.min(max, first * 2 ** Math.max(0, failures - 1))
    return ceiling / 2 + Math.random() * (ceiling / 2)
  }
}
