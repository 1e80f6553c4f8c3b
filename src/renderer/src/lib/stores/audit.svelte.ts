// The audit list: every change made through the app API, newest first, with its author.
// Read while the alerts view is on screen, again after each alerts push.
import type { AppClient } from '../../../../shared/client'
import type { AuditEntry } from '../../../../shared/team'

export class AuditStore {
  entries = $state<AuditEntry[]>([])
  error = $state<string | null>(null)

  async load(client: AppClient): Promise<void> {
    const result = await client.request('listAudit', { limit: 50 })
    if (!result.ok) {
      this.error = result.error.message
      return
    }
    this.entries = result.value
    this.error = null
  }
}

export const audit = new AuditStore()
