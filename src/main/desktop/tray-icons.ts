// The tray's five states, each a different shape (resources/tray/, drawn by
// scripts/make-tray-icons.js): the state reads without colour. macOS gets the black "Template"
// versions, which the menu bar recolours for light and dark; @2x files load alongside.
import { join } from 'node:path'
import { nativeImage } from 'electron'
import type { NativeImage } from 'electron'
import type { AlertsChanged } from '../../shared/alerts'

export type TrayState = AlertsChanged['tray']
export const TRAY_STATES: readonly TrayState[] = ['ok', 'warning', 'critical', 'blind', 'paused']

export function trayIconPath(resourcesDir: string, state: TrayState, platform: NodeJS.Platform): string {
  const template = platform === 'darwin' ? 'Template' : ''
  return join(resourcesDir, 'tray', `tray-${state}${template}.png`)
}

const warnedMissing = new Set<string>()

export function loadTrayIcon(resourcesDir: string, state: TrayState, platform: NodeJS.Platform): NativeImage {
  const path = trayIconPath(resourcesDir, state, platform)
  const image = nativeImage.createFromPath(path)
  // An empty image leaves an invisible tray entry: say why, once per file.
  if (image.isEmpty() && !warnedMissing.has(path)) {
    warnedMissing.add(path)
    console.error(`eventwatch: tray icon missing or unreadable: ${path}`)
  }
  return image
}

const STATE_WORDS: Record<TrayState, string> = {
  ok: 'all clear',
  warning: 'warning',
  critical: 'critical',
  blind: 'cannot reach the service',
  paused: 'polling paused'
}

export interface TrayTooltipFacts {
  state: TrayState
  firing: number
  /** Set while notifications are paused: when they resume, already formatted. */
  notificationsPausedUntil?: string
}

/** "Eventwatch — 2 alerts firing"; the state in words when nothing fires. */
export function trayTooltip(facts: TrayTooltipFacts): string {
  const parts = [
    facts.firing > 0 ? `${facts.firing} ${facts.firing === 1 ? 'alert' : 'alerts'} firing` : STATE_WORDS[facts.state]
  ]
  if (facts.firing > 0 && (facts.state === 'blind' || facts.state === 'paused')) parts.push(STATE_WORDS[facts.state])
  if (facts.notificationsPausedUntil) parts.push(`notifications paused until ${facts.notificationsPausedUntil}`)
  return `Eventwatch — ${parts.join(', ')}`
}
