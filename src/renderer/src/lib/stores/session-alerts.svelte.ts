// One session's alerts, every one kept, for the marks on its drill-down charts: read once when
// the drill-down opens, then patched by each alertsChanged push that concerns the session.
import type { Alert, AlertsChanged } from '../../../../shared/alerts'
import type { AppClient } from '../../../../shared/client'
import type { SessionKey } from '../../../../shared/schema-parts'
import { patchAlerts } from '../alert-situation'

export class SessionAlerts {
  list = $state<Alert[]>([])

  /** The revision the list is current with (-1: not read yet). */
  private revision = -1
  /** Pushes that came before the list was read: applied over it once it answers. */
  private early: AlertsChanged[] = []

  constructor(readonly key: SessionKey) {}

  private belongs = (alert: Alert): boolean =>
    alert.connectionId === this.key.connectionId && alert.eventSessionId === this.key.eventSessionId

  async load(client: AppClient): Promise<void> {
    const result = await client.request('listAlerts', { ...this.key, historyHours: 24 * 365, limit: 1000 })
    if (!result.ok) return
    const { alerts, situation } = result.value
    let list = alerts
    for (const change of this.early) if (change.situation.revision > situation.revision) list = this.patched(list, change)
    this.early = []
    this.revision = Math.max(situation.revision, this.revision)
    this.list = list
  }

  /** Follows one push: changes nothing when it does not concern this session. */
  apply(change: AlertsChanged): void {
    if (this.revision < 0) {
      this.early.push(change)
      return
    }
    if (change.situation.revision <= this.revision) return
    this.revision = change.situation.revision
    const touched = change.changed.some(this.belongs) || this.list.some((a) => change.removed.includes(a.id))
    if (touched) this.list = this.patched(this.list, change)
  }

  private patched(list: readonly Alert[], change: AlertsChanged): Alert[] {
    return patchAlerts(list, change, { belongs: this.belongs })
  }
}
