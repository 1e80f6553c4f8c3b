// Every keyboard shortcut the screens have, in one list: the `?` dialog shows it, docs/screens.md
// says the same. A shortcut never fires while the operator types in a field, nor with Ctrl, Alt or
// ⌘ held (those belong to the browser and the system).

export interface Shortcut {
  /** The keys as the dialog shows them, each in its own <kbd>. */
  keys: string[]
  what: string
}

export interface ShortcutGroup {
  where: string
  shortcuts: Shortcut[]
}

export const SHORTCUTS: readonly ShortcutGroup[] = [
  {
    where: 'Everywhere',
    shortcuts: [
      { keys: ['?'], what: 'Show this list of shortcuts' },
      { keys: ['/'], what: "Go to the view's search box" },
      { keys: ['Esc'], what: 'Leave a text box; close a form or this list; back from a session to where you opened it' }
    ]
  },
  {
    where: 'Alerts (an alert or one of its buttons has focus)',
    shortcuts: [
      { keys: ['a'], what: 'Acknowledge the alert: opens its note, Enter acknowledges' },
      { keys: ['s'], what: 'Snooze the alert: choose for how long' }
    ]
  },
  {
    where: 'Lists and tables',
    shortcuts: [
      { keys: ['Enter'], what: 'Open the focused session (Live, History), viewer or breakdown row' },
      { keys: ['Space'], what: 'Open the focused History row or breakdown row' },
      { keys: ['↑', '↓'], what: 'Move between viewers in the Viewers table' },
      { keys: ['←', '→', 'Home', 'End'], what: 'Move between the breakdown tabs' }
    ]
  }
]

/** Whether the key went to something the operator types in (where letters are text, not commands). */
export const typingIn = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))

/** Whether this key press may be a shortcut: not typed into a field, no Ctrl, Alt or ⌘, not taken. */
export const shortcutKey = (event: KeyboardEvent): boolean =>
  !event.defaultPrevented && !event.ctrlKey && !event.metaKey && !event.altKey && !typingIn(event.target)
