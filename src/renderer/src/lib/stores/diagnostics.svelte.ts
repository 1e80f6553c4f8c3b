// Recent trouble with the service, newest first; refreshed after every poll while shown. One
// connection's only, or the app's own, when the operator filters by connection (the core filters).
import type { AppClient } from '../../../../shared/client'
import type { Diagnostic } from '../../../../shared/domain'

/** Every entry (undefined), one connection's (its id) or the app's own, of no connection (null). */
export type DiagnosticsFilter = string | null | undefined

export class DiagnosticsStore {
  entries = $state<Diagnostic[]>([])
  error = $state<string | null>(null)
  loaded = $state(false)
  connectionId = $state<DiagnosticsFilter>(undefined)

  /** Each answer is for the filter it was asked with: one that comes after a change is dropped. */
  private generation = 0

  async load(client: AppClient): Promise<void> {
    const generation = ++this.generation
    const filter = this.connectionId === undefined ? {} : { connectionId: this.connectionId }
    const result = await client.request('listDiagnostics', { limit: 500, ...filter })
    if (generation !== this.generation) return
    if (!result.ok) {
      this.error = result.error.message
      return
    }
    this.entries = result.value
    this.error = null
    this.loaded = true
  }

  /** Shows one connection's entries (or every one's), read afresh. */
  filter(client: AppClient, connectionId: DiagnosticsFilter): Promise<void> {
    this.connectionId = connectionId
    return this.load(client)
  }
}

export const diagnostics = new DiagnosticsStore()
