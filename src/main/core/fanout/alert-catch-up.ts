// The alerts pushes of other cores on the same database, pushed by this one too (docs/scaling-
// plan.md section 3, "Ids, not data"). A NOTIFY carries a revision only; this reads the
// alert_changes rows after the last revision this core's faces heard, a page at a time, and makes
// each revision a push of its own, in order, with the alerts as they are now — the shape a local
// push has (the situation is added by whoever pushes). The faces drop a push no newer than the
// one they hold, so revisions must reach them in order: the Monitor runs every catch-up, and its
// own pushes, in one queue, and catches up before each of its own.
import type { Revised } from '../../../shared/revisions'
import { announce, type AlertReading, type Announcement } from '../alerts/page'
import type { AlertChangeKind, AlertChangeRow } from '../store/interface/core-state'
import type { ReadTx } from '../store/interface/store'

/** One push of another core's, to push here. */
export interface RelayedPush {
  /** Its revision, in the epoch it was taken in; for a catch-up that ends on revisions that
   *  announced no alert (a pause, a cooldown), the revision now, with no alert. */
  stamp: Revised
  said: Announcement
}

export type CatchUpReading = AlertReading & Pick<ReadTx, 'coreState'>

export interface CatchUpOptions {
  /** Rows read at a time (one push larger than that is read whole, alone). */
  pageSize?: number
  /** After each push relayed: the board follows the connections its alerts belong to. */
  relayed?(push: RelayedPush): void
}

const nothingSaid = (): Announcement => ({ changed: [], removed: [], fired: [], resolved: [], repeated: [], silenced: [] })

/** The rows of one page, by revision, in order. */
function byRevision(rows: readonly AlertChangeRow[]): AlertChangeRow[][] {
  const pushes: AlertChangeRow[][] = []
  for (const row of rows) {
    const last = pushes.at(-1)
    if (last?.[0]?.revision === row.revision) last.push(row)
    else pushes.push([row])
  }
  return pushes
}

export class AlertCatchUp {
  /** The newest revision this core's faces heard: its own pushes and those relayed. */
  private heard = 0

  constructor(
    private readonly read: CatchUpReading,
    private readonly clock: () => number,
    private readonly options: CatchUpOptions = {}
  ) {}

  /** Starts from the revision now: what came before, this core's faces read whole. */
  async begin(): Promise<void> {
    this.heard = Math.max(this.heard, (await this.read.coreState.revision('alerts'))?.revision ?? 0)
  }

  /** Whether `revision` (a notification's) is one this core's faces have not heard. */
  isNews(revision: number): boolean {
    return revision > this.heard
  }

  /** This core pushed `revision` itself. */
  pushedHere(revision: number): void {
    this.heard = Math.max(this.heard, revision)
  }

  /**
   * Pushes, through `push` and in revision order, what the revisions after the last one heard
   * announced: up to `until` (before a push of this core's own), or up to the revision now,
   * ending with the situation alone when the last revisions announced no alert. A push that
   * throws stops the catch-up there: the next one starts again from it.
   */
  async catchUp(push: (relayed: RelayedPush) => Promise<void>, until?: number): Promise<void> {
    const now = until === undefined ? await this.read.coreState.revision('alerts') : null
    const last = until ?? now?.revision ?? 0
    while (this.heard < last) {
      const page = await this.read.coreState.alertChangesSince(this.heard, this.options.pageSize ?? 500)
      const within = page.filter((row) => row.revision <= last)
      for (const rows of byRevision(within)) {
        const relayed = { stamp: { epoch: rows[0]!.epoch, revision: rows[0]!.revision }, said: await this.announcement(rows) }
        await push(relayed)
        this.heard = relayed.stamp.revision
        this.options.relayed?.(relayed)
      }
      if (within.length === 0 || within.length < page.length) break
    }
    if (now && this.heard < now.revision) {
      const relayed = { stamp: now, said: nothingSaid() }
      await push(relayed)
      this.heard = now.revision
    }
  }

  /** What one revision's rows announced, with the alerts as they are now. */
  private async announcement(rows: readonly AlertChangeRow[]): Promise<Announcement> {
    const ids = (kind: AlertChangeKind): number[] => rows.filter((row) => row.kind === kind).map((row) => row.alertId)
    const alerts = await this.read.alerts.many([...new Set(rows.filter((row) => row.kind !== 'removed').map((row) => row.alertId))])
    const byId = new Map(alerts.map((alert) => [alert.id, alert]))
    const pick = (kind: AlertChangeKind) => ids(kind).flatMap((id) => byId.get(id) ?? [])
    const changed = pick('changed')
    // The rows keep what the push announced, not what a window silenced: that is read again.
    const { silenced } = await announce(this.read, { changed, removed: [], fired: [], resolved: [], repeated: [] }, this.clock())
    return { changed, removed: ids('removed'), fired: pick('fired'), resolved: pick('resolved'), repeated: pick('repeated'), silenced }
  }
}
