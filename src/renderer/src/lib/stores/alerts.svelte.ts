// Alerts as the screens see them: the core's situation (header, nav count, Alerts view title,
// wall, window title), the alerts view's page, and (in the browser host only) web notifications.
//
// The page is read when the Alerts view opens (and answers every operator action); from then on
// each alertsChanged push patches it: the situation replaces ours, changed alerts replace theirs,
// removed ones leave. A push no newer than the situation held (its revision) is ignored; one of a
// new epoch (the core restarted) is taken whole and the page read again (shared/revisions.ts);
// pushes that come while a page is being read are applied again over it when it answers.
import type { Alert, AlertsChanged, AlertsPage, AlertSituation, SnoozeChoice } from '../../../../shared/alerts'
import type { AppClient } from '../../../../shared/client'
import type { Result } from '../../../../shared/result'
import { ALERT_HISTORY_MS, patchAlerts } from '../alert-situation'
import { stampOf, standingOf, takesAnswer, type Revised } from '../../../../shared/revisions'
import { identity } from './identity.svelte'
import { pageSoundFor, planNotification, type NotifyTarget, type PermissionState } from '../notify'
import { playAlertSound } from '../alert-sound'
import { display } from './display.svelte'

const readPermission = (): PermissionState =>
  typeof Notification === 'undefined' ? 'unsupported' : (Notification.permission as PermissionState)

export class AlertsStore {
  /** The alerts view's list: open alerts and the last day's resolved ones. */
  page = $state<Alert[] | null>(null)
  /** The core's verdict on all alerts; null until the first page or push. */
  situation = $state<AlertSituation | null>(null)
  error = $state<string | null>(null)
  /** The alert an action is under way for, so its buttons wait. */
  busy = $state<number | null>(null)
  permission = $state<PermissionState>(readPermission())
  readonly desktop = typeof window !== 'undefined' && 'eventwatch' in window

  private client: AppClient | null = null
  /** Requests answering a page, under way now. */
  private reading = 0
  /** The revision of the newest page applied: an older answer arriving late is dropped. */
  private pageHeld: Revised | null = null
  /** Pushes received while a page was being read. */
  private backlog: AlertsChanged[] = []

  constructor(private readonly now: () => number = Date.now) {}

  /** Follows the pushes; `onNotificationClick` routes a clicked web notification. */
  connect(client: AppClient, onNotificationClick: (target: NotifyTarget) => void): () => void {
    this.client = client
    const off = client.on('alertsChanged', (change) => {
      if (this.receive(change)) this.notify(change, onNotificationClick)
    })
    void this.load()
    return off
  }

  /** Reads the page (and with it the situation) again. */
  async load(): Promise<void> {
    const client = this.client
    if (!client) return
    await this.read(() => client.request('listAlerts', {}))
  }

  acknowledge(id: number, note: string): Promise<boolean> {
    const trimmed = note.trim()
    return this.act(id, (client) => client.request('acknowledgeAlert', trimmed ? { id, note: trimmed } : { id }))
  }

  snooze(id: number, until: SnoozeChoice): Promise<boolean> {
    return this.act(id, (client) => client.request('snoozeAlert', { id, until }))
  }

  /** Mutes (or unmutes) every alert of the alert's session. */
  async setMuted(alert: Alert, muted: boolean): Promise<boolean> {
    const client = this.client
    if (!client || alert.eventSessionId === null) return false
    this.busy = alert.id
    const result = await client.request('setSessionAlertOverride', {
      connectionId: alert.connectionId,
      eventSessionId: alert.eventSessionId,
      muted
    })
    this.busy = null
    if (!result.ok) {
      this.error = `Could not ${muted ? 'mute' : 'unmute'} the session: ${result.error.message}`
      return false
    }
    await this.load()
    return true
  }

  /** Pauses notifications for `minutes` (0 resumes them). */
  pause(minutes: number): Promise<boolean> {
    return this.act(null, (client) => client.request('pauseNotifications', { minutes }))
  }

  /** Asks the browser for permission: call from a click only, never on load. */
  async enableNotifications(): Promise<void> {
    if (typeof Notification === 'undefined') return
    this.permission = (await Notification.requestPermission()) as PermissionState
  }

  /** Applies a push unless it is no newer than the situation held; true when applied. */
  private receive(change: AlertsChanged): boolean {
    if (this.reading > 0) this.backlog.push(change)
    return this.apply(change)
  }

  private apply(change: AlertsChanged): boolean {
    const standing = standingOf(this.situation, change.situation)
    if (standing === 'older' || standing === 'same') return false
    this.situation = change.situation
    if (!this.page) return true
    // A new epoch: the page held is of another count, and this push is no diff of it.
    if (standing === 'new-epoch' && this.reading === 0) void this.load()
    else this.page = patchAlerts(this.page, change, { resolvedSince: this.now() - ALERT_HISTORY_MS })
    return true
  }

  private async act(id: number | null, request: (client: AppClient) => Promise<Result<AlertsPage>>): Promise<boolean> {
    const client = this.client
    if (!client) return false
    this.busy = id
    const done = await this.read(() => request(client))
    this.busy = null
    return done
  }

  /** Reads a page; pushes meanwhile are kept and applied again over it. */
  private async read(request: () => Promise<Result<AlertsPage>>): Promise<boolean> {
    this.reading++
    let result: Result<AlertsPage>
    try {
      result = await request()
    } finally {
      this.reading--
    }
    const backlog = this.backlog
    if (this.reading === 0) this.backlog = []
    if (!result.ok) {
      this.error = result.error.message
      return false
    }
    this.error = null
    const { alerts, situation } = result.value
    // A newer page is in already (answers can overtake each other): this one adds nothing.
    if (!takesAnswer(this.pageHeld, situation)) return true
    this.pageHeld = stampOf(situation)
    this.page = alerts
    if (takesAnswer(this.situation, situation)) this.situation = situation
    // What was pushed after the page was read still applies to it.
    for (const change of backlog) {
      if (standingOf(situation, change.situation) === 'newer') {
        this.page = patchAlerts(this.page, change, { resolvedSince: this.now() - ALERT_HISTORY_MS })
      }
    }
    return true
  }

  private notify(change: AlertsChanged, onClick: (target: NotifyTarget) => void): void {
    this.permission = readPermission()
    const context = {
      now: this.now(),
      desktop: this.desktop,
      permission: this.permission,
      pageHidden: typeof document !== 'undefined' && document.visibilityState === 'hidden',
      sound: display.alertSounds,
      self: identity.current?.team ? identity.current.name : null
    }
    const sound = pageSoundFor(change, context)
    if (sound) playAlertSound(sound)
    const plan = planNotification(change, context)
    if (!plan) return
    try {
      const shown = new Notification(plan.title, { body: plan.body, tag: plan.tag, silent: plan.silent })
      shown.onclick = () => {
        window.focus()
        onClick(plan.target)
        shown.close()
      }
    } catch {
      // Some browsers allow notifications only from a service worker: the page still shows the alert.
    }
  }
}

export const alerts = new AlertsStore()
