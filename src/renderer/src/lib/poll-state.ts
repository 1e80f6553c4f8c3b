// The connection state in one word and a tone, for the header and the wall's status line alike:
// offline, stale or not yet polled must never look like "live".
import type { Status } from '../../../shared/domain'
import { isStale } from '../../../shared/format'
import { display } from './stores/display.svelte'

export interface PollState {
  label: string
  tone: 'ok' | 'bad' | 'muted'
  /** Data on screen is not current: offline, failing, stopped or stale. */
  outdated: boolean
}

export function pollState(status: Status | null, now: number): PollState {
  if (!status) return { label: 'Connecting…', tone: 'muted', outdated: false }
  const stale = isStale(status.lastUpdateAt, now, status.pollIntervalSeconds)
  if (status.paused) return { label: 'Paused', tone: 'muted', outdated: stale }
  if (status.offlineSince) return { label: `Offline since ${display.formatTime(status.offlineSince).slice(0, 5)}`, tone: 'bad', outdated: true }
  if (status.pollState === 'error') return { label: status.lastUpdateAt ? 'Cannot reach the service' : 'Not connected', tone: 'bad', outdated: true }
  if (status.pollState === 'stopped') return { label: 'Stopped', tone: 'bad', outdated: true }
  if (stale) return { label: 'Stale', tone: 'bad', outdated: true }
  // Nothing polled yet: the screen shows the cache, not the service's present.
  if (!status.lastUpdateAt) return { label: 'Connecting…', tone: 'muted', outdated: true }
  return { label: status.mode === 'demo' ? 'Live (demo)' : 'Connected', tone: 'ok', outdated: false }
}
