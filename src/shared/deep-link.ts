// Every view as a URL hash: `#live`, `#alerts`, `#history`, `#settings`, `#diagnostics`, `#wall`,
// `#session/<connectionId>/<eventSessionId>`. The page keeps its hash on the view shown (App.svelte),
// so a reload, Back and a bookmark (a kiosk's `#wall`) land where the operator was; the desktop's
// tray and notifications send the window somewhere by writing it. The hash keeps the window on
// the app's own URL (the navigation guard's rule) and needs no IPC channel. Pure, in shared: the
// desktop writes it and the renderer reads it with the same code.

export const APP_VIEWS = ['live', 'alerts', 'history', 'settings', 'diagnostics', 'wall'] as const
export type AppView = (typeof APP_VIEWS)[number]

export type AppTarget = { view: 'session'; connectionId: string; eventSessionId: string } | { view: AppView }

/** The hash for a target, without the leading '#'. Ids are percent-encoded: they may hold '/'. */
export function appTargetHash(target: AppTarget): string {
  if (target.view !== 'session') return target.view
  return `session/${encodeURIComponent(target.connectionId)}/${encodeURIComponent(target.eventSessionId)}`
}

/** Whether two targets are the same place. */
export const sameTarget = (a: AppTarget, b: AppTarget): boolean => appTargetHash(a) === appTargetHash(b)

/** The target a hash names (with or without its '#'), or undefined for anything else. */
export function parseAppTarget(hash: string): AppTarget | undefined {
  const text = hash.startsWith('#') ? hash.slice(1) : hash
  const view = APP_VIEWS.find((v) => v === text)
  if (view) return { view }
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
