// Acting on an alert where it appears (a notification's buttons, the tray menu): the very
// requests the window makes (acknowledgeAlert, snoozeAlert) dispatched to the desk's core — its
// own, or on a team desk the team server's, which knows the signed-in user by the desk's token —
// so the validation, the roles and the audit are the window's. The operator pressed and looked
// away: a refusal is told (one sentence, the core's), never swallowed.
import type { SnoozeChoice } from '../../shared/alerts'
import type { AppCore } from '../core/app/types'

export type AlertAction = 'acknowledge' | 'snooze'

/** What a notification's "Snooze 30 min" asks for. */
export const QUICK_SNOOZE: SnoozeChoice = '30m'

/** Acknowledges or snoozes the alert; resolves whether the core took it. */
export type ActOnAlert = (alertId: number, action: AlertAction) => Promise<boolean>

export function alertActor(core: Pick<AppCore, 'dispatch'>, tell: (message: string) => void): ActOnAlert {
  return async (alertId, action) => {
    try {
      const result =
        action === 'acknowledge'
          ? await core.dispatch('acknowledgeAlert', { id: alertId })
          : await core.dispatch('snoozeAlert', { id: alertId, until: QUICK_SNOOZE })
      if (!result.ok) tell(result.error.message)
      return result.ok
    } catch (error) {
      console.error(`eventwatch: could not ${action} alert ${alertId}`, error)
      tell(`Could not ${action} the alert: ${error instanceof Error ? error.message : String(error)}`)
      return false
    }
  }
}
