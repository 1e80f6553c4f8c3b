// Which sound a push calls for (shared/alert-sound.ts): one per severity, each on or off, and
// never for an alert that fired held back (muted, snoozed) — a table over what a push can carry.
import { describe, expect, it } from 'vitest'
import { alertSoundFor, soundChoiceOf, type AlertSoundChoice } from '../../src/shared/alert-sound'
import type { Alert } from '../../src/shared/alerts'
import { DEFAULT_DISPLAY } from '../../src/shared/settings'
import { alert } from './desktop/alert-fixtures'

const BOTH: AlertSoundChoice = { critical: true, warning: true }
const critical = (overrides: Partial<Alert> = {}) => alert({ severity: 'critical', ...overrides })
const warning = (overrides: Partial<Alert> = {}) => alert({ id: 2, severity: 'warning', ...overrides })

describe('the sound of a push', () => {
  const table: [string, Alert[], Alert[], AlertSoundChoice, 'critical' | 'warning' | null][] = [
    ['nothing fired', [], [], BOTH, null],
    ['a critical fired', [critical()], [], BOTH, 'critical'],
    ['a warning fired', [warning()], [], BOTH, 'warning'],
    ['a critical and a warning fired: the critical is heard', [warning(), critical()], [], BOTH, 'critical'],
    ["a critical fired with its sound off: not the warning's sound instead", [critical(), warning()], [], { critical: false, warning: true }, null],
    ["a warning fired with the warning's sound off", [warning()], [], { critical: true, warning: false }, null],
    ['a critical reminded (repeated)', [], [critical()], BOTH, 'critical'],
    ['a critical reminded with its sound off', [], [critical()], { critical: false, warning: true }, null],
    ['a critical that fired muted', [critical({ state: 'muted' })], [], BOTH, null],
    ['a critical that fired snoozed, with a warning firing', [critical({ state: 'snoozed' }), warning()], [], BOTH, 'warning'],
    ['an acknowledged critical in fired', [critical({ state: 'acknowledged' })], [], BOTH, null]
  ]
  for (const [what, fired, repeated, choice, expected] of table) {
    it(what, () => expect(alertSoundFor({ fired, repeated }, choice)).toBe(expected))
  }

  it("by default a critical is heard and a warning is not (a NOC's choice: docs/screens.md)", () => {
    expect(soundChoiceOf(DEFAULT_DISPLAY)).toEqual({ critical: true, warning: false })
    expect(soundChoiceOf(undefined)).toEqual({ critical: true, warning: false })
    expect(soundChoiceOf({ alertSound: 'off', warningSound: 'on' })).toEqual({ critical: false, warning: true })
  })
})
