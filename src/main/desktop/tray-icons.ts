// The tray's five states, each a different shape (resources/tray/, drawn by
// scripts/make-tray-icons.js): the state reads without colour. macOS gets the black "Template"
// versions, which the menu bar recolours for light and dark; @2x files load alongside.
// Which state shows is the core's word (AlertSituation.tray); this file only finds its picture.
import { join } from 'node:path'
import { nativeImage } from 'electron'
import type { NativeImage } from 'electron'
import type { AlertSituation, TrayState } from '../../shared/alerts'
import { plainText, shorten } from '../../shared/plain-text'

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

/** Windows cuts a tray tooltip at 127 characters: cut it ourselves, visibly. */
export const MAX_TOOLTIP_LENGTH = 127

/**
 * "Eventwatch — 2 alerts firing (1 acknowledged) · 1 pending critical · polling paused": the
 * core's headline, then the pauses; on a second line, when a connection is not simply connected,
 * the polling status per connection ("Contoso offline since 06:10 (connection refused) · Fabrikam
 * connected"). No situation yet (the core has not answered): says so rather than "all clear".
 * `notificationsPausedUntil`: set while notifications are paused, already formatted.
 */
export function trayTooltip(
  situation: Pick<AlertSituation, 'headline' | 'pollingPaused'> | undefined,
  notificationsPausedUntil?: string,
  polling?: string
): string {
  const second = polling ? `\n${plainText(polling)}` : ''
  if (!situation) return shorten(`Eventwatch — alerts not known yet${second}`, MAX_TOOLTIP_LENGTH)
  const parts = [situation.headline]
  if (situation.pollingPaused) parts.push('polling paused')
  if (notificationsPausedUntil) parts.push(`notifications paused until ${notificationsPausedUntil}`)
  // The headline names events and connections: anyone's text, made plain (shared/plain-text.ts).
  return shorten(`${plainText(`Eventwatch — ${parts.join(' · ')}`)}${second}`, MAX_TOOLTIP_LENGTH)
}
