// The maintenance windows in force at an instant, found through the store's indexes rather than by
// reading every window: one-off windows by their start, repeating ones zone by zone by the phase
// of their start (its time of day or of the week on the zone's clocks). Around a change of the
// clocks the phase lookup is widened by the change and each candidate decided by inForce.
import { phaseOf, REPEAT_PERIOD_MS } from '../../../shared/maintenance'
import { DAY_MS, offsetAt, wallClock } from '../../../shared/time-zones'
import type { MaintenanceReads, MaintenanceRecord } from '../store/interface/maintenance'
import { inForce } from './maintenance'

/** `windows`: the maintenance reads of the Store, or of a unit of work. */
export async function windowsInForce(windows: MaintenanceReads, now: number): Promise<MaintenanceRecord[]> {
  const found: MaintenanceRecord[] = []
  const longestOnce = await windows.longest('none')
  if (longestOnce !== null) found.push(...(await windows.onceInForce(now, longestOnce)))
  for (const repeat of ['daily', 'weekly'] as const) {
    const longest = await windows.longest(repeat)
    if (longest === null) continue
    for (const zone of await windows.zones(repeat)) found.push(...(await repeatingInForce(windows, repeat, zone, now, longest)))
  }
  return found.sort((a, b) => a.startsAt - b.startsAt || a.id - b.id)
}

async function repeatingInForce(
  windows: MaintenanceReads,
  repeat: 'daily' | 'weekly',
  zone: string,
  now: number,
  longest: number
): Promise<MaintenanceRecord[]> {
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
  const candidates: MaintenanceRecord[] = []
  for (const [from, to] of ranges) candidates.push(...(await windows.repeatCandidates({ repeat, zone, now, phaseNow, period, slop, from, to })))
  return slop === 0 ? candidates : candidates.filter((w) => inForce(w, now))
}

/** How far the zone's clocks moved between `from` and `to` (0 almost always; an hour around a
 *  change to or from daylight saving). No zone changes them twice within ten days. */
function clockChange(zone: string, from: number, to: number): number {
  const offsets = [offsetAt(zone, from), offsetAt(zone, (from + to) / 2), offsetAt(zone, to)]
  return Math.max(...offsets) - Math.min(...offsets)
}
