// Hostile names on the desktop (issue 23): OS notifications and the tray's tooltip and menu show
// no control, bidi or invisible character, a name cannot add a line to a notification, and the
// tray menu shows an "&" rather than taking it for an access key.
import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))

import { acknowledgedText, firedText, repeatedText, resolvedText } from '../../../src/main/desktop/alert-text'
import { trayTooltip } from '../../../src/main/desktop/tray-icons'
import { trayMenuTemplate } from '../../../src/main/desktop/tray-menu'
import type { Alert } from '../../../src/shared/alerts'
import { HOSTILE_NAMES, unsafeCharacters } from '../../support/hostile-names'
import { alert, AT, liveSession, situation } from './alert-fixtures'

const noop = (): void => undefined
const ACTIONS = { open: noop, acknowledge: noop, setPollingPaused: noop, pauseNotifications: noop, quit: noop }

describe.each(HOSTILE_NAMES)('a hostile name on the desktop: $what', ({ name }) => {
  const named = (over: Partial<Alert> = {}): Alert =>
    alert({
      eventName: name,
      connectionName: name,
      summary: `Reliability 86.2 at ${name}`,
      state: 'acknowledged',
      transitions: [{ at: AT, state: 'acknowledged', severity: 'critical', value: null, note: name, by: name }],
      ...over
    })
  const one = [named()]
  const many = [named({ id: 1 }), named({ id: 2, rule: 'monitor-blind', eventSessionId: null, eventName: null }), named({ id: 3, rule: 'site-reliability', site: name, siteName: name })]

  it.each([
    ['fired', firedText],
    ['repeated', repeatedText],
    ['resolved', resolvedText],
    ['acknowledged', acknowledgedText]
  ] as const)('%s notifications: plain titles, one body line per alert', (_what, text) => {
    const single = text(one)
    expect(unsafeCharacters(single.title)).toEqual([])
    expect(unsafeCharacters(single.body)).toEqual([])
    const grouped = text(many)
    expect(unsafeCharacters(grouped.title)).toEqual([])
    expect(unsafeCharacters(grouped.body, ['\n'])).toEqual([])
    expect(grouped.body.split('\n')).toHaveLength(many.length)
  })

  it('the tray tooltip: plain, and no longer than Windows shows', () => {
    const tooltip = trayTooltip(situation({ blind: [{ connectionId: 'c1', connectionName: name }] }))
    expect(unsafeCharacters(tooltip)).toEqual([])
    expect(tooltip.length).toBeLessThanOrEqual(127)
  })

  it('the tray menu: plain labels, every "&" shown', () => {
    const menu = trayMenuTemplate({ sessions: [liveSession({ eventName: name })], blind: [], pollingPaused: false }, ACTIONS)
    const label = menu.find((item) => item.label?.endsWith('— good'))?.label ?? ''
    expect(unsafeCharacters(label)).toEqual([])
    expect(label.replace(/&&/g, '')).not.toContain('&')
  })
})
