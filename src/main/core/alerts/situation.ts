// The alert situation, decided once: from the open alerts counted by state and severity, the
// conditions held back by a cooldown, the connections that cannot be polled and the pauses, one
// verdict that every face shows (header, alerts view, wall, window title, tray, notifications).
// Pure: test/unit/alert-situation.test.ts is its table. The headline quotes connection and window
// names, anyone's text: each is made plain and isolated (shared/plain-text.ts), so a right-to-left
// name cannot reorder the rest of the line, nor a control act on the screen showing it.
import type { AlertSeverity, AlertSituation, SituationTone, TrayState } from '../../../shared/alerts'
import { isolatedName } from '../../../shared/plain-text'
import type { OpenState } from './engine'
import type { WindowInForce } from './maintenance'

/** A polled connection whose data cannot be vouched for yet: never polled successfully, or offline. */
export interface UnconfirmedConnection {
  connectionId: string
  connectionName: string
  /** connecting: no successful poll yet in this run; paused: none since polling was paused (a
   *  pause kept across a restart); offline: polls fail now; unheld: servers share the
   *  connections by lease and none holds this one now (its holder died or let go). */
  why: 'connecting' | 'paused' | 'offline' | 'unheld'
}

export interface SituationFacts {
  revision: number
  /** The count the revision is of (shared/revisions.ts). */
  epoch: string
  now: number
  /** Open alerts counted by state and severity. */
  open: readonly { state: OpenState; severity: AlertSeverity; n: number }[]
  /** Severities of the conditions the cooldown holds back. */
  cooling: readonly AlertSeverity[]
  blind: readonly { connectionId: string; connectionName: string }[]
  /** Connections polled but not confirmed: no successful poll yet, or offline (before monitor
   *  blind fires). "No alerts" is then no all-clear. */
  unconfirmed: readonly UnconfirmedConnection[]
  pollingPaused: boolean
  notificationsPausedUntil: number | null
  /** Maintenance windows in force, those covering everything first (absent: none). */
  maintenance?: readonly WindowInForce[]
  /** How many connections are polled (absent: one). */
  connectionsPolled?: number
}

/** The header names this many windows in force at most, then says how many more. */
export const MAINTENANCE_NAMED = 5

const worstOf = (severities: Iterable<AlertSeverity>): AlertSeverity | null => {
  let worst: AlertSeverity | null = null
  for (const s of severities) if (s === 'critical' || worst === null) worst = s
  return worst
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

export function decideSituation(facts: SituationFacts): AlertSituation {
  const count = (states: OpenState[]): number => facts.open.filter((o) => states.includes(o.state)).reduce((n, o) => n + o.n, 0)
  const severities = (states: OpenState[]): AlertSeverity[] => facts.open.filter((o) => states.includes(o.state) && o.n > 0).map((o) => o.severity)
  // An acknowledged alert still fires: the operator knows, the problem is not gone.
  const firing = count(['firing', 'acknowledged'])
  const acknowledged = count(['acknowledged'])
  const worst = worstOf(severities(['firing', 'acknowledged']))
  const pending = count(['pending'])
  const worstPending = worstOf(severities(['pending']))
  const snoozed = count(['snoozed'])
  const muted = count(['muted'])
  const cooldown = facts.cooling.length
  const blindIds = new Set(facts.blind.map((b) => b.connectionId))
  const unconfirmed = facts.unconfirmed.filter((u) => !blindIds.has(u.connectionId))
  const held = snoozed + muted + cooldown + unconfirmed.length > 0

  const tone: SituationTone = facts.blind.length > 0 ? 'blind' : (worst ?? (pending > 0 ? 'pending' : held ? 'held' : 'ok'))
  const tray: TrayState = facts.pollingPaused ? 'paused' : facts.blind.length > 0 ? 'blind' : (worst ?? 'ok')

  const parts: string[] = []
  if (facts.blind.length > 0) parts.push(`cannot reach ${facts.blind.map((b) => isolatedName(b.connectionName)).join(', ')}`)
  if (firing > 0) parts.push(`${plural(firing, 'alert')} firing${acknowledged > 0 ? ` (${acknowledged} acknowledged)` : ''}`)
  if (pending > 0) parts.push(pending === 1 ? `1 pending ${worstPending}` : `${pending} pending (worst ${worstPending})`)
  if (snoozed > 0) parts.push(`${snoozed} snoozed`)
  if (muted > 0) parts.push(`${muted} muted`)
  if (cooldown > 0) parts.push(`${cooldown} in cooldown`)
  if (parts.length === 0) parts.push('no alerts')
  const names = (why: UnconfirmedConnection['why']): string =>
    unconfirmed
      .filter((u) => u.why === why)
      .map((u) => isolatedName(u.connectionName))
      .join(', ')
  if (names('connecting')) parts.push(`waiting for the first poll of ${names('connecting')}`)
  if (names('paused')) parts.push(`polling of ${names('paused')} paused`)
  if (names('offline')) parts.push(`${names('offline')} offline`)
  if (names('unheld')) parts.push(`waiting for a server to take over ${names('unheld')}`)
  const inForce = facts.maintenance ?? []
  const named = inForce.slice(0, MAINTENANCE_NAMED)
  const more = inForce.length - named.length
  const label = (w: WindowInForce): string => (w.longDays === null ? isolatedName(w.name) : `${isolatedName(w.name)} (${w.longDays} days)`)
  const all = named.filter((w) => w.everything).map(label)
  const some = named.filter((w) => !w.everything).map(label)
  // A window over everything leads: whatever else the line says, nothing of it is announced.
  if (all.length > 0) parts.unshift(`all alerts silenced by ${all.join(', ')}`)
  const others = more === 0 ? '' : some.length > 0 ? ` and ${more} more` : plural(more, 'more window')
  if (some.length > 0 || more > 0) parts.push(`maintenance: ${some.join(', ')}${others}`)
  const headline = capitalise(parts.join(' · '))
  const maintenance = named.map((w) => w.name)

  return {
    revision: facts.revision,
    epoch: facts.epoch,
    at: new Date(facts.now).toISOString(),
    firing,
    acknowledged,
    worst,
    pending,
    worstPending,
    snoozed,
    muted,
    cooldown,
    blind: [...facts.blind],
    pollingPaused: facts.pollingPaused,
    notificationsPausedUntil: facts.notificationsPausedUntil === null ? null : new Date(facts.notificationsPausedUntil).toISOString(),
    maintenance,
    tone,
    tray,
    headline,
    connectionsPolled: facts.connectionsPolled ?? 1
  }
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)
