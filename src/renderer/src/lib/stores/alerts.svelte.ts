// Alerts as the screens see them: the alerts view's page, the header's firing count, the
// maintenance pause, and (in the browser host only) web notifications. Kept current from the
// core's alertsChanged push; the view reloads on entry too.
import type { Alert, AlertsChanged, AlertsPage, SnoozeChoice } from '../../../../shared/alerts'
import type { AppClient } from '../../../../shared/client'
import type { Result } from '../../../../shared/result'
import { worstOpenBySession } from '../../components/alerts/alert-words'
import { planNotification, type NotifyTarget, type PermissionState } from '../notify'

type Tray = AlertsChanged['tray']

const readPermission = (): PermissionState =>
  typeof Notification === 'undefined' ? 'unsupported' : (Notification.permission as PermissionState)

export class AlertsStore {
  page = $state<AlertsPage | null>(null)
  /** Firing and not acknowledged, snoozed or muted: the header's count. */
  firing = $state(0)
  /** The worst state, as the tray shows it (the header's icon follows it). */
  tray = $state<Tray>('ok')
  pausedUntil = $state<string | null>(null)
  error = $state<string | null>(null)
  /** The alert an action is under way for, so its buttons wait. */
  busy = $state<number | null>(null)
  /** Bumped on every push, so session charts reload their marks. */
  version = $state(0)
  permission = $state<PermissionState>(readPermission())
  /** Each session's most pressing open alert, by "connectionId/eventSessionId". */
  bySession = $derived(worstOpenBySession(this.page?.alerts ?? []))
  readonly desktop = typeof window !== 'undefined' && window.eventwatch !== undefined

  private client: AppClient | null = null
  /** Pushes come in bursts: only the newest answer is applied, never an older one after it. */
  private requests = 0

  /** Follows the pushes; `onNotificationClick` routes a clicked web notification. */
  connect(client: AppClient, onNotificationClick: (target: NotifyTarget) => void): () => void {
    this.client = client
    const off = client.on('alertsChanged', (change) => {
      this.firing = change.firing
      this.tray = change.tray
      this.pausedUntil = change.notificationsPausedUntil
      this.version++
      this.notify(change, onNotificationClick)
      void this.load()
    })
    void this.load()
    return off
  }

  async load(): Promise<void> {
    if (!this.client) return
    const n = ++this.requests
    const result = await this.client.request('listAlerts', {})
    if (n === this.requests) this.accept(result)
  }

  /** One session's alerts, every one kept (for its chart marks). */
  async forSession(key: { connectionId: string; eventSessionId: string }): Promise<Alert[] | null> {
    if (!this.client) return null
    const result = await this.client.request('listAlerts', { ...key, historyHours: 24 * 365, limit: 1000 })
    return result.ok ? result.value.alerts : null
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
  async pause(minutes: number): Promise<boolean> {
    if (!this.client) return false
    const n = ++this.requests
    const result = await this.client.request('pauseNotifications', { minutes })
    if (n !== this.requests && result.ok) return true
    return this.accept(result)
  }

  /** Asks the browser for permission: call from a click only, never on load. */
  async enableNotifications(): Promise<void> {
    if (typeof Notification === 'undefined') return
    this.permission = (await Notification.requestPermission()) as PermissionState
  }

  private async act(id: number, request: (client: AppClient) => Promise<Result<AlertsPage>>): Promise<boolean> {
    if (!this.client) return false
    this.busy = id
    const n = ++this.requests
    const result = await request(this.client)
    this.busy = null
    if (n !== this.requests && result.ok) return true
    return this.accept(result)
  }

  private accept(result: Result<AlertsPage>): boolean {
    if (!result.ok) {
      this.error = result.error.message
      return false
    }
    this.error = null
    this.page = result.value
    this.firing = result.value.firing
    this.pausedUntil = result.value.notificationsPausedUntil
    return true
  }

  private notify(change: AlertsChanged, onClick: (target: NotifyTarget) => void): void {
    this.permission = readPermission()
    const plan = planNotification(change, {
      now: Date.now(),
      desktop: this.desktop,
      permission: this.permission,
      pageHidden: typeof document !== 'undefined' && document.visibilityState === 'hidden'
    })
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
