// Alerts on cue for the screens' specs: only "reliability below" is on, firing at the first poll
// that crosses a level and resolving at the first that does not, with no cooldown; the levels
// are moved so that every live demo session crosses (warning or critical) or none does.
import { expect } from '@playwright/test'
import { DEFAULT_ALERT_RULES, type AlertRules, type AlertSeverity } from '../../../src/shared/alerts'
import type { BrowserHost } from '../browser-host'
import { request } from './api'

type Host = Pick<BrowserHost, 'origin' | 'token'>

const timing = { pendingPolls: 1, recoveryPolls: 1, cooldownMinutes: 0 }

export const RULES_ON_CUE: AlertRules = {
  ...DEFAULT_ALERT_RULES,
  reliabilityBelow: { ...DEFAULT_ALERT_RULES.reliabilityBelow, ...timing, recoveryMargin: 0 },
  reliabilityFalling: { ...DEFAULT_ALERT_RULES.reliabilityFalling, enabled: false },
  viewersDropping: { ...DEFAULT_ALERT_RULES.viewersDropping, enabled: false },
  siteReliability: { ...DEFAULT_ALERT_RULES.siteReliability, enabled: false }
}

/** The demo's live scores sit between about 75 and 99.6: these levels put them all above, or below. */
const LEVELS = {
  none: { warning: 1, critical: 0.5 },
  warning: { warning: 100, critical: 0.5 },
  critical: { warning: 100, critical: 99.99 }
} as const

/** Moves the levels: from the next poll every live session's alert fires at `severity`, or resolves. */
export async function alertsOnCue(host: Host, severity: AlertSeverity | 'none'): Promise<void> {
  await request(host, 'saveSettings', { thresholds: LEVELS[severity], alertRules: RULES_ON_CUE })
}

/** Waits until no alert is open (every one resolved). */
export async function noOpenAlert(host: Host): Promise<void> {
  await expect
    .poll(async () => (await request(host, 'listAlerts', {})).alerts.filter((a) => a.state !== 'resolved').length, {
      message: 'every alert resolved',
      timeout: 30_000
    })
    .toBe(0)
}
