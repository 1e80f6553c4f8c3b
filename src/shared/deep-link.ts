// Where a notification or the tray menu sends the operator, written into the page's URL hash:
// `#session/<connectionId>/<eventSessionId>` or `#alerts`. The hash keeps the window on the app's
// own URL (the navigation guard's rule) and needs no new IPC channel. Pure, in shared: the desktop
// writes it and the renderer reads it (App.svelte) with the same code.

export type AppTarget =
  | { view: 'session'; connectionId: string; eventSessionId: string }
  | { view: 'alerts' }

/** The hash for a target, without the leading '#'. Ids are percent-encoded: they may hold '/'. */
export function appTargetHash(target: AppTarget): string {
  if (target.view === 'alerts') return 'alerts'
  return `session/${encodeURIComponent(target.connectionId)}/${encodeURIComponent(target.eventSessionId)}`
}

/** The target a hash names (with or without its '#'), or undefined for anything else. */
export function parseAppTarget(hash: string): AppTarget | undefined {
  const text = hash.startsWith('#') ? hash.slice(1) : hash
  if (text === 'alerts') return { view: 'alerts' }
  const parts = text.split('/')
  if (parts.length !== 3 || parts[0] !== 'session') return undefined
  try {
    const connectionId = decodeURIComponent(parts[1]!)
    const eventSessionId = decodeURIComponent(parts[2]!)
    if (!connectionId || !eventSessionId || connectionId.length > 200 || eventSessionId.length > 200) return undefined
    return { view: 'session', connectionId, eventSessionId }
  } catch {
    // A malformed %-escape.
    return undefined
  }
}
