// The alert situation decided once (decideSituation), as a table: what every face shows — the
// header, the alerts view, the wall, the window title and the tray — for each mix of open alerts,
// cooldowns, blind connections and pauses. Nothing reads 'ok' while anything fires or waits.
import { describe, expect, it } from 'vitest'
import { decideSituation, type SituationFacts } from '../../src/main/core/alerts/situation'
import type { AlertSituation } from '../../src/shared/alerts'
import { isolatedName } from '../../src/shared/plain-text'
import { T0 } from '../support/fake-clock'

type Open = SituationFacts['open'][number]
const open = (state: Open['state'], severity: Open['severity'], n = 1): Open => ({ state, severity, n })
const TENANT_A = { connectionId: 'a', connectionName: 'Tenant A' }

function facts(change: Partial<SituationFacts> = {}): SituationFacts {
  return { revision: 7, epoch: 'e1', now: T0, open: [], cooling: [], blind: [], unconfirmed: [], pollingPaused: false, notificationsPausedUntil: null, ...change }
}

/** Each case names at least what a face reads first: the tone and the tray. */
const cases: [string, Partial<SituationFacts>, Partial<AlertSituation> & Pick<AlertSituation, 'tone' | 'tray'>][] = [
  [
    'nothing open: ok, and says so',
    {},
    { firing: 0, acknowledged: 0, worst: null, pending: 0, worstPending: null, snoozed: 0, muted: 0, cooldown: 0, tone: 'ok', tray: 'ok', headline: 'No alerts' }
  ],
  [
    'nothing open but a connection never polled yet: no all-clear',
    { unconfirmed: [{ ...TENANT_A, why: 'connecting' }] },
    { firing: 0, tone: 'held', tray: 'ok', headline: `No alerts · waiting for the first poll of ${isolatedName('Tenant A')}` }
  ],
  [
    'nothing open but a connection paused before its first poll of this run (a pause kept across a restart): no all-clear, and no "waiting"',
    { unconfirmed: [{ ...TENANT_A, why: 'paused' }], pollingPaused: true },
    { firing: 0, tone: 'held', tray: 'paused', headline: `No alerts · polling of ${isolatedName('Tenant A')} paused` }
  ],
  [
    'nothing open but a connection offline (not blind yet): no all-clear',
    { unconfirmed: [{ ...TENANT_A, why: 'offline' }] },
    { firing: 0, tone: 'held', tray: 'ok', headline: `No alerts · ${isolatedName('Tenant A')} offline` }
  ],
  [
    'nothing open but a connection no server of the team holds now (its holder died): no all-clear, and says what it waits for',
    { unconfirmed: [{ ...TENANT_A, why: 'unheld' }] },
    { firing: 0, tone: 'held', tray: 'ok', headline: `No alerts · waiting for a server to take over ${isolatedName('Tenant A')}` }
  ],
  [
    'a blind connection is said once, as blind, not also as offline',
    { blind: [TENANT_A], open: [open('firing', 'critical')], unconfirmed: [{ ...TENANT_A, why: 'offline' }] },
    { firing: 1, tone: 'blind', tray: 'blind', headline: `Cannot reach ${isolatedName('Tenant A')} · 1 alert firing` }
  ],
  [
    'an alert firing while another connection is offline: both said, the alert sets the tone',
    { open: [open('firing', 'warning')], unconfirmed: [{ connectionId: 'b', connectionName: 'Tenant B', why: 'offline' }] },
    { firing: 1, tone: 'warning', tray: 'warning', headline: `1 alert firing · ${isolatedName('Tenant B')} offline` }
  ],
  [
    'an acknowledged warning still fires: counted, marked, not ok',
    { open: [open('acknowledged', 'warning')] },
    { firing: 1, acknowledged: 1, worst: 'warning', tone: 'warning', tray: 'warning', headline: '1 alert firing (1 acknowledged)' }
  ],
  [
    'an acknowledged critical beside a firing warning: critical',
    { open: [open('acknowledged', 'critical'), open('firing', 'warning')] },
    { firing: 2, acknowledged: 1, worst: 'critical', tone: 'critical', tray: 'critical', headline: '2 alerts firing (1 acknowledged)' }
  ],
  [
    'a pending critical: pending with its severity, the tray not yet alarmed',
    { open: [open('pending', 'critical')] },
    { firing: 0, worst: null, pending: 1, worstPending: 'critical', tone: 'pending', tray: 'ok', headline: '1 pending critical' }
  ],
  [
    'pending warning and critical: the worst is named',
    { open: [open('pending', 'warning'), open('pending', 'critical')] },
    { pending: 2, worstPending: 'critical', tone: 'pending', tray: 'ok', headline: '2 pending (worst critical)' }
  ],
  [
    'firing and pending together: both said, in one line',
    { open: [open('firing', 'warning'), open('acknowledged', 'warning'), open('pending', 'critical')] },
    {
      firing: 2, acknowledged: 1, worst: 'warning', pending: 1, worstPending: 'critical', tone: 'warning', tray: 'warning',
      headline: '2 alerts firing (1 acknowledged) · 1 pending critical'
    }
  ],
  [
    'only snoozed: held (neutral), not ok',
    { open: [open('snoozed', 'critical')] },
    { firing: 0, snoozed: 1, worst: null, tone: 'held', tray: 'ok', headline: '1 snoozed' }
  ],
  [
    'only muted: held',
    { open: [open('muted', 'warning', 2)] },
    { muted: 2, tone: 'held', tray: 'ok', headline: '2 muted' }
  ],
  [
    'a condition held back by the cooldown: held, counted',
    { cooling: ['critical'] },
    { cooldown: 1, firing: 0, tone: 'held', tray: 'ok', headline: '1 in cooldown' }
  ],
  [
    'snoozed, muted and cooling together',
    { open: [open('snoozed', 'warning'), open('muted', 'critical')], cooling: ['warning', 'warning'] },
    { snoozed: 1, muted: 1, cooldown: 2, tone: 'held', tray: 'ok', headline: '1 snoozed · 1 muted · 2 in cooldown' }
  ],
  [
    'pending beats held',
    { open: [open('snoozed', 'critical'), open('pending', 'warning')] },
    { tone: 'pending', tray: 'ok', headline: '1 pending warning · 1 snoozed' }
  ],
  [
    'a connection that cannot be polled: blind, named',
    { open: [open('firing', 'critical')], blind: [TENANT_A] },
    { firing: 1, worst: 'critical', blind: [TENANT_A], tone: 'blind', tray: 'blind', headline: `Cannot reach ${isolatedName('Tenant A')} · 1 alert firing` }
  ],
  [
    'two blind connections are both named',
    { blind: [TENANT_A, { connectionId: 'b', connectionName: 'Tenant B' }] },
    { tone: 'blind', tray: 'blind', headline: `Cannot reach ${isolatedName('Tenant A')}, ${isolatedName('Tenant B')}` }
  ],
  [
    'polling paused: the tray says paused, the tone still tells the alerts',
    { open: [open('firing', 'critical')], pollingPaused: true },
    { pollingPaused: true, worst: 'critical', tone: 'critical', tray: 'paused', headline: '1 alert firing' }
  ],
  [
    'polling paused beats blind in the tray',
    { blind: [TENANT_A], pollingPaused: true },
    { tone: 'blind', tray: 'paused' }
  ],
  [
    'critical beats warning, whatever the order',
    { open: [open('firing', 'critical'), open('firing', 'warning', 2)] },
    { firing: 3, worst: 'critical', tone: 'critical', tray: 'critical', headline: '3 alerts firing' }
  ],
  [
    'warning then critical: still critical',
    { open: [open('firing', 'warning'), open('firing', 'critical')] },
    { worst: 'critical', tone: 'critical', tray: 'critical' }
  ],
  [
    'a count of zero does not make a severity',
    { open: [open('firing', 'critical', 0), open('firing', 'warning')] },
    { firing: 1, worst: 'warning', tone: 'warning', tray: 'warning', headline: '1 alert firing' }
  ]
]

describe('decideSituation', () => {
  it.each(cases)('%s', (_what, given, expected) => {
    expect(decideSituation(facts(given))).toMatchObject(expected)
  })

  it('is never ok while anything fires, waits, is held, is blind or is not confirmed', () => {
    for (const [what, given] of cases) {
      const situation = decideSituation(facts(given))
      const counted = situation.firing + situation.pending + situation.snoozed + situation.muted + situation.cooldown + situation.blind.length
      const quiet = counted + (given.unconfirmed?.length ?? 0) === 0
      expect(situation.tone === 'ok', what).toBe(quiet)
      expect(situation.headline === 'No alerts', what).toBe(quiet)
    }
  })

  it('quotes each name plain and isolated, so a right-to-left or hostile name reorders nothing around it', () => {
    const hebrew = { connectionId: 'h', connectionName: 'שלום' }
    const hostile = { connectionId: 'x', connectionName: 'Con\u202etoso\u001b[2J' }
    const situation = decideSituation(
      facts({
        blind: [hebrew],
        unconfirmed: [{ ...hostile, why: 'offline' }],
        maintenance: [{ name: 'ליל תיקונים\u2069', everything: true, longDays: 9 }],
        open: [open('firing', 'critical', 2)]
      })
    )
    expect(situation.headline).toBe(
      `All alerts silenced by \u2068ליל תיקונים\u2069 (9 days) · cannot reach \u2068שלום\u2069 · 2 alerts firing · \u2068Contoso [2J\u2069 offline`
    )
    // The data stays as given: only the line for people is plain.
    expect(situation.blind).toEqual([hebrew])
    expect(situation.maintenance).toEqual(['ליל תיקונים\u2069'])
  })

  it('carries the revision, the time and the maintenance pause as instants', () => {
    const until = T0 + 60 * 60_000
    expect(decideSituation(facts({ revision: 42, notificationsPausedUntil: until }))).toMatchObject({
      revision: 42,
      at: new Date(T0).toISOString(),
      notificationsPausedUntil: new Date(until).toISOString()
    })
    expect(decideSituation(facts()).notificationsPausedUntil).toBeNull()
  })

  it('gives the blind connections as a list of its own, not the caller\'s', () => {
    const blind = [TENANT_A]
    const situation = decideSituation(facts({ blind }))
    blind.push({ connectionId: 'b', connectionName: 'B' })
    expect(situation.blind).toEqual([TENANT_A])
  })
})
