// The connection state in one word and a tone, as the wall's status line says it. Same rules
// as the header (StatusBar): offline and stale must never look like "live".
import type { Status } from '../../../../shared/domain'
import { isStale } from '../../../../shared/format'
import { display } from '../../lib/stores/display.svelte'

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
  return { label: status.mode === 'demo' ? 'Live (demo)' : 'Live', tone: 'ok', outdated: false }
}
