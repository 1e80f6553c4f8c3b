// Where the operator is: a top-level view, or a session's drill-down opened from one of them.
// `Esc` goes back (App.svelte), so every route remembers where it came from.
export type TopView = 'live' | 'alerts' | 'history' | 'settings' | 'diagnostics'

export type Route =
  | { view: TopView }
  | { view: 'wall' }
  | { view: 'session'; connectionId: string; eventSessionId: string; from: TopView }

export class NavStore {
  route = $state<Route>({ view: 'live' })
  /** The top-level view in use (the one a session was opened from, while it is open). */
  top = $derived<TopView>(this.route.view === 'session' ? this.route.from : this.route.view === 'wall' ? 'live' : this.route.view)

  show(view: TopView | 'wall'): void {
    this.route = { view } as Route
  }

  openSession(key: { connectionId: string; eventSessionId: string }): void {
    this.route = { view: 'session', connectionId: key.connectionId, eventSessionId: key.eventSessionId, from: this.top }
  }

  /** One step back: a session to where it was opened from, the wall to live. False at the top. */
  back(): boolean {
    const route = this.route
    if (route.view === 'session') this.route = { view: route.from }
    else if (route.view === 'wall') this.route = { view: 'live' }
    else return false
    return true
  }
}

export const nav = new NavStore()
