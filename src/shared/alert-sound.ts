// Which sound one alertsChanged push calls for, decided once for every face (the browser host's
// Web Audio tones, the desktop's notification sound). The core decides what is announced (a
// maintenance window takes its alerts out of `fired`); this only picks the sound for it.
import type { AlertsChanged } from './alerts'
import type { DisplaySettings } from './settings'

export type AlertSoundKind = 'critical' | 'warning'

/** Settings → Display: each severity's sound on or off. */
export interface AlertSoundChoice {
  critical: boolean
  warning: boolean
}

export const soundChoiceOf = (display: Pick<DisplaySettings, 'alertSound' | 'warningSound'> | undefined): AlertSoundChoice => ({
  critical: display?.alertSound !== 'off',
  warning: display?.warningSound === 'on'
})

/**
 * The sound for what a push announces: a critical's when a critical fires or is announced again
 * (the core's reminder that nobody acknowledged it), else a warning's when a warning fires; null
 * when nothing fires or that severity's sound is off. Only alerts that really fire count: one
 * that fired muted or snoozed stays quiet. A critical with its sound off never borrows the warning's.
 */
export function alertSoundFor(change: Pick<AlertsChanged, 'fired' | 'repeated'>, choice: AlertSoundChoice): AlertSoundKind | null {
  const firing = change.fired.filter((a) => a.state === 'firing')
  if (firing.some((a) => a.severity === 'critical') || change.repeated.length > 0) return choice.critical ? 'critical' : null
  if (firing.length > 0) return choice.warning ? 'warning' : null
  return null
}
