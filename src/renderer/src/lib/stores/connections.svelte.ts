// Saved connections as the UI may see them (secrets as yes/no only), their test reports, and
// date-range fetches from the service.
import type { AppClient } from '../../../../shared/client'
import type { ConnectionInput, ConnectionTestReport, ConnectionView } from '../../../../shared/connections'
import { localDayRange } from '../../../../shared/day-range'
import type { Result } from '../../../../shared/result'

export class ConnectionsStore {
  list = $state<ConnectionView[]>([])
  error = $state<string | null>(null)
  reports = $state<Record<string, ConnectionTestReport | 'testing'>>({})
  fetchMessage = $state<string | null>(null)
  fetching = $state(false)

  async load(client: AppClient): Promise<void> {
    const result = await client.request('listConnections', {})
    if (result.ok) {
      this.list = result.value
      this.error = null
    } else this.error = result.error.message
  }

  async test(client: AppClient, id: string): Promise<void> {
    this.reports = { ...this.reports, [id]: 'testing' }
    this.reports = { ...this.reports, [id]: reportOf(await client.request('testConnection', { id })) }
  }

  /** Tests settings as typed, before they are saved (editing: an empty secret means the stored
   *  one). The secret goes with this one request and is kept nowhere. */
  async testDraft(client: AppClient, id: string | undefined, settings: ConnectionInput, secret: string | undefined): Promise<ConnectionTestReport> {
    return reportOf(await client.request('testConnectionDraft', { ...(id ? { id } : {}), settings, ...(secret ? { secret } : {}) }))
  }

  async setEnabled(client: AppClient, id: string, enabled: boolean): Promise<void> {
    const result = await client.request('setConnectionEnabled', { id, enabled })
    // Reload first: a refusal's reason must outlive the reload that clears older errors.
    await this.load(client)
    if (!result.ok) this.error = result.error.message
  }

  /** Creates (no id) or updates a connection; the secret goes to the keychain, never back. */
  async save(client: AppClient, id: string | undefined, settings: ConnectionInput, secret: string | undefined): Promise<string | null> {
    const result = await client.request('saveConnection', {
      ...(id ? { id } : {}),
      settings,
      ...(secret ? { secret } : {})
    })
    await this.load(client)
    return result.ok ? null : result.error.message
  }

  async remove(client: AppClient, id: string): Promise<void> {
    const result = await client.request('deleteConnection', { id })
    await this.load(client)
    if (!result.ok) this.error = result.error.message
    const { [id]: _dropped, ...reports } = this.reports
    this.reports = reports
  }

  async fetchRange(client: AppClient, connectionId: string, fromDay: string, toDay: string): Promise<void> {
    const range = localDayRange(fromDay, toDay)
    if (!range) {
      this.fetchMessage = 'Choose a start day on or before the end day.'
      return
    }
    this.fetching = true
    this.fetchMessage = null
    const result = await client.request('fetchRange', { connectionId, ...range })
    this.fetching = false
    this.fetchMessage = result.ok
      ? `Fetched ${result.value.listed} session${result.value.listed === 1 ? '' : 's'} into the cache.`
      : `Could not fetch: ${result.error.message}`
  }
}

/** A test's report; a request that failed is a report that failed, saying why. */
const reportOf = (result: Result<ConnectionTestReport>): ConnectionTestReport =>
  result.ok ? result.value : { ok: false, steps: [{ step: 'token', ok: false, message: result.error.message }] }

export const connections = new ConnectionsStore()
