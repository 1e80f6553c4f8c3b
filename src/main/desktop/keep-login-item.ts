// Keeps the OS login item in step with the `startAtLogin` setting: once at start (the setting may
// have been changed elsewhere, or the app moved), and at every settings change after.
import type { AppSettings } from '../../shared/settings'
import type { AppCore } from '../core/app/types'
import { applyStartAtLogin, type LoginItemPlace } from './login-item'

export function keepLoginItem(core: AppCore, place: LoginItemPlace): () => void {
  let applied: boolean | undefined
  const apply = (settings: Partial<AppSettings> | undefined): void => {
    const wanted = settings?.desktop?.startAtLogin
    if (typeof wanted !== 'boolean' || wanted === applied) return
    try {
      applyStartAtLogin(wanted, place)
      applied = wanted
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      core.recordProblem({ endpoint: 'start at login', message: `could not ${wanted ? 'set' : 'remove'} the login item: ${why}` })
    }
  }
  void core.dispatch('getSettings', {}).then((result) => {
    if (result.ok) apply(result.value as AppSettings)
  })
  return core.onEvent((name, payload) => {
    if (name === 'settingsChanged') apply(payload as AppSettings)
  })
}
