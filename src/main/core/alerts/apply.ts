// The engine's decisions made real: each action stored through the Store's alerts, inside the
// unit of work that runs it (alert-changes.ts), and what changed reported (alert ids), so the app
// can queue its webhooks and push it.
// Also ends what a connection no longer polled left open, with the reason in words.
import type { AlertStore } from '../store/interface/alerts'
import type { ConnectionReads } from '../store/interface/connections'
import type { Tx } from '../store/interface/store'
import { dismiss, type AlertAction } from './engine'
import { alertEnd } from './end-reason'

export interface Applied {
  /** Alerts that began firing (new, after pending, a snooze that ended, worse, unmuted). */
  fired: number[]
  resolved: number[]
  /** Every alert an alerts view would show differently (streak counts alone do not). */
  changed: number[]
  /** Pending alerts discarded: their condition cleared before they fired. */
  removed: number[]
}

export const nothingApplied = (): Applied => ({ fired: [], resolved: [], changed: [], removed: [] })

export const anythingApplied = (applied: Applied): boolean => applied.changed.length > 0 || applied.removed.length > 0

/** The engine's changes for one connection, written by `alerts` of the unit that runs them. */
export async function applyActions(alerts: AlertStore, connectionId: string, actions: AlertAction[], now: number): Promise<Applied> {
  const applied = nothingApplied()
  for (const action of actions) {
    switch (action.type) {
      case 'open': {
        const id = await alerts.insert(connectionId, action, now)
        if (action.state === 'firing') applied.fired.push(id)
        applied.changed.push(id)
        break
      }
      case 'move':
        await alerts.move(action.id, action, now)
        if (action.state === 'firing') applied.fired.push(action.id)
        if (action.state === 'resolved') applied.resolved.push(action.id)
        applied.changed.push(action.id)
        break
      case 'streak':
        await alerts.setStreak(action.id, action.streak)
        break
      case 'discard':
        await alerts.discard(action.id)
        applied.removed.push(action.id)
        break
      case 'cooldown':
        break // held back by the cooldown: nothing stored (the evaluator remembers it)
    }
  }
  // A resolve after a fire in the same batch (or the reverse) is reported once, as it ends.
  applied.fired = applied.fired.filter((id) => !applied.resolved.includes(id))
  applied.changed = [...new Set(applied.changed)].filter((id) => !applied.removed.includes(id))
  return applied
}

/**
 * Ends the open alerts of every connection not in `polled` (disabled, the demo once a real
 * connection takes over, or not chosen by this run): nothing watches them any more, so they must
 * not hold the tray. Each ends with the reason in words, which the alerts view shows.
 */
export async function resolveUnwatched(tx: Tx, polled: readonly string[], now: number): Promise<Applied> {
  const applied = nothingApplied()
  const watched = new Set(polled)
  let realPolled = false
  for (const id of polled) if ((await tx.connections.get(id))?.isDemo === false) realPolled = true
  for (const alert of (await tx.alerts.unresolved()).filter((a) => !watched.has(a.connectionId))) {
    const end = alertEnd({ cause: 'unwatched', why: await unwatchedReason(tx.connections, alert.connectionId, realPolled) })
    const one = await applyActions(tx.alerts, alert.connectionId, [dismiss(alert, end)], now)
    applied.resolved.push(...one.resolved)
    applied.changed.push(...one.changed)
    applied.removed.push(...one.removed)
  }
  return applied
}

/** Why a connection is no longer polled, in words an operator can check. */
export async function unwatchedReason(connections: ConnectionReads, connectionId: string, realPolled: boolean): Promise<string> {
  const presence = await connections.get(connectionId)
  if (!presence) return 'connection removed'
  if (presence.isDemo) return realPolled ? 'demo data left behind: a real connection is polled now' : 'demo data no longer polled'
  if (!presence.enabled) return 'connection disabled: no longer polled'
  return 'connection not polled by this run'
}
