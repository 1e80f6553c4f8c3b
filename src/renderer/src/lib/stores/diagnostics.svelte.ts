// Recent trouble with the service, newest first; refreshed after every poll while shown.
import type { AppClient } from '../../../../shared/client'
import type { Diagnostic } from '../../../../shared/domain'

export class DiagnosticsStore {
  entries = $state<Diagnostic[]>([])
  error = $state<string | null>(null)
  loaded = $state(false)

  async load(client: AppClient): Promise<void> {
    const result = await client.request('listDiagnostics', { limit: 500 })
    if (!result.ok) {
      this.error = result.error.message
      return
    }
    this.entries = result.value
    this.error = null
    this.loaded = true
  }
}

export const diagnostics = new DiagnosticsStore()
