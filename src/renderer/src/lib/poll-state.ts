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

/**
 * What the header says in place of "Last update HH:MM" before this run has any: "waiting" only
 * while a first poll may still come; offline or failing, it says the screens show the cache
 * instead (never "Offline since 18:45 · Waiting for the first update…").
 */
export function noUpdateWords(status: Status | null): string {
  if (!status) return 'Waiting for the first update…'
  // The last good data, from an earlier run or before a restart of polling, is never dropped.
  const cached = status.lastGoodAt ? `showing cached data of ${display.formatMoment(status.lastGoodAt)}` : 'showing cached data'
  if (status.paused) return `No update yet: polling is paused; ${cached}`
  if (status.offlineSince || status.pollState === 'error' || status.pollState === 'stopped') return `No successful poll yet: ${cached}`
  return status.lastGoodAt ? `Waiting for the first update… (${cached})` : 'Waiting for the first update…'
}
