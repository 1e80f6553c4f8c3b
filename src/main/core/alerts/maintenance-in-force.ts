// The maintenance windows in force at an instant, found through the store's indexes rather than by
// reading every window: one-off windows by their start, repeating ones zone by zone by the phase
// of their start (its time of day or of the week on the zone's clocks). Around a change of the
// clocks the phase lookup is widened by the change and each candidate decided by inForce.
import { phaseOf, REPEAT_PERIOD_MS } from '../../../shared/maintenance'
import { DAY_MS, offsetAt, wallClock } from '../../../shared/time-zones'
import type { Db } from '../store/db'
import { longestMaintenance, onceInForce, repeatCandidates, repeatZones, type MaintenanceRecord } from '../store/maintenance'
import { inForce } from './maintenance'

export function windowsInForce(db: Db, now: number): MaintenanceRecord[] {
  const found: MaintenanceRecord[] = []
  const longestOnce = longestMaintenance(db, 'none')
  if (longestOnce !== null) found.push(...onceInForce(db, now, longestOnce))
  for (const repeat of ['daily', 'weekly'] as const) {
    const longest = longestMaintenance(db, repeat)
    if (longest === null) continue
    for (const zone of repeatZones(db, repeat)) found.push(...repeatingInForce(db, repeat, zone, now, longest))
  }
  return found.sort((a, b) => a.startsAt - b.startsAt || a.id - b.id)
}

function repeatingInForce(db: Db, repeat: 'daily' | 'weekly', zone: string, now: number, longest: number): MaintenanceRecord[] {
  const period = REPEAT_PERIOD_MS[repeat]
  const slop = clockChange(zone, now - longest - 2 * DAY_MS, now + DAY_MS)
  const phaseNow = phaseOf(wallClock(zone, now), period)
  // Phases whose occurrence may hold `now`: up to the longest length (and the slop) before it.
  const span = longest + 3 * slop
  const ranges: [number, number][] =
    span >= period
      ? [[0, period - 1]]
      : phaseNow - longest - 2 * slop >= 0 && phaseNow + slop < period
        ? [[phaseNow - longest - 2 * slop, phaseNow + slop]]
        : [
            [0, (phaseNow + slop) % period],
            [(((phaseNow - longest - 2 * slop) % period) + period) % period, period - 1]
          ]
  const candidates = ranges.flatMap(([from, to]) => repeatCandidates(db, { repeat, zone, now, phaseNow, period, slop, from, to }))
  return slop === 0 ? candidates : candidates.filter((w) => inForce(w, now))
}

/** How far the zone's clocks moved between `from` and `to` (0 almost always; an hour around a
 *  change to or from daylight saving). No zone changes them twice within ten days. */
function clockChange(zone: string, from: number, to: number): number {
  const offsets = [offsetAt(zone, from), offsetAt(zone, (from + to) / 2), offsetAt(zone, to)]
  return Math.max(...offsets) - Math.min(...offsets)
}
