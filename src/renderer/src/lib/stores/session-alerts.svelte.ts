// One session's alerts, every one kept, for the marks on its drill-down charts: read once when
// the drill-down opens, then patched by each alertsChanged push that concerns the session; a push
// of a new epoch (the core restarted) is no diff of the list held, which is read again.
import type { Alert, AlertsChanged } from '../../../../shared/alerts'
import type { AppClient } from '../../../../shared/client'
import { stampOf, standingOf, type Revised } from '../../../../shared/revisions'
import type { SessionKey } from '../../../../shared/schema-parts'
import { patchAlerts } from '../alert-situation'

export class SessionAlerts {
  list = $state<Alert[]>([])

  /** The revision the list is current with (null: not read yet). */
  private held: Revised | null = null
  /** Pushes that came before the list was read: applied over it once it answers. */
  private early: AlertsChanged[] = []
  private client: AppClient | null = null

  constructor(readonly key: SessionKey) {}

  private belongs = (alert: Alert): boolean =>
    alert.connectionId === this.key.connectionId && alert.eventSessionId === this.key.eventSessionId

  async load(client: AppClient): Promise<void> {
    this.client = client
    const result = await client.request('listAlerts', { ...this.key, historyHours: 24 * 365, limit: 1000 })
    if (!result.ok) return
    const { alerts, situation } = result.value
    let list = alerts
    let held = stampOf(situation)
    for (const change of this.early) {
      if (standingOf(held, change.situation) !== 'newer') continue
      list = this.patched(list, change)
      held = stampOf(change.situation)
    }
    this.early = []
    this.held = held
    this.list = list
  }

  /** Follows one push: changes nothing when it does not concern this session. */
  apply(change: AlertsChanged): void {
    if (!this.held) {
      this.early.push(change)
      return
    }
    const standing = standingOf(this.held, change.situation)
    if (standing === 'new-epoch' && this.client) {
      this.held = null
      void this.load(this.client)
      return
    }
    if (standing !== 'newer') return
    this.held = stampOf(change.situation)
    const touched = change.changed.some(this.belongs) || this.list.some((a) => change.removed.includes(a.id))
    if (touched) this.list = this.patched(this.list, change)
  }

  private patched(list: readonly Alert[], change: AlertsChanged): Alert[] {
    return patchAlerts(list, change, { belongs: this.belongs })
  }
}
