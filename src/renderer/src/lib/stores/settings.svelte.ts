// The Settings screen's copy of the app settings, and saving one section at a time. A save that
// the core accepts is applied to the display store at once, and so is every settingsChanged push
// (a save in another window, or on the wall's host), so every screen and window follows it.
import type { AppClient } from '../../../../shared/client'
import type { RequestArgs } from '../../../../shared/contract'
import type { AppSettings } from '../../../../shared/settings'
import { display } from './display.svelte'

export type SettingsSection = 'cadences' | 'retention' | 'thresholds' | 'display' | 'desktop'
type SaveArgs = RequestArgs<'saveSettings'>

export interface SaveOutcome {
  ok: boolean
  message: string
}

export class SettingsStore {
  current = $state<AppSettings | null>(null)
  loadError = $state<string | null>(null)
  saving = $state<SettingsSection | null>(null)
  /** The last save's outcome per section, in words. */
  outcomes = $state<Partial<Record<SettingsSection, SaveOutcome>>>({})

  /** Follows the settings saved anywhere; returns the unsubscribe function. */
  connect(client: AppClient): () => void {
    return client.on('settingsChanged', (next) => this.apply(next))
  }

  async load(client: AppClient): Promise<void> {
    const result = await client.request('getSettings', {})
    if (!result.ok) {
      this.loadError = result.error.message
      return
    }
    this.loadError = null
    this.apply(result.value)
  }

  /** The settings as the core has them now: this screen's copy and every screen's display. */
  apply(next: AppSettings): void {
    this.current = next
    display.apply(next)
  }

  /** Saves one section; the core validates again and its refusal is shown as it said it. */
  async save<S extends SettingsSection>(client: AppClient, section: S, value: NonNullable<SaveArgs[S]>): Promise<boolean> {
    this.saving = section
    const result = await client.request('saveSettings', { [section]: value } as SaveArgs)
    this.saving = null
    if (!result.ok) {
      this.outcomes = { ...this.outcomes, [section]: { ok: false, message: `Not saved: ${result.error.message}` } }
      return false
    }
    this.apply(result.value)
    this.outcomes = { ...this.outcomes, [section]: { ok: true, message: 'Saved.' } }
    return true
  }

  clearOutcome(section: SettingsSection): void {
    if (!this.outcomes[section]) return
    const { [section]: _dropped, ...rest } = this.outcomes
    this.outcomes = rest
  }
}

export const settings = new SettingsStore()
