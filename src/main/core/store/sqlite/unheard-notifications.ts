// SQLite's notifications: none are delivered. One server runs on a file, so the core that
// commits a change is the one that pushes it; another process on the file (a CLI sync, the desk)
// could not hear an in-process delivery anyway, and a delivery only a second store in the same
// process could hear would promise a fan-out SQLite does not have (docs/store.md). A unit's send
// is still checked as on every backend, and is a write (refused outside a writing unit).
import type { NotificationSender } from '../interface/notifications'
import { checkNotification } from '../notify-channels'
import type { Runners } from './runners'

export const unheardNotifications = ({ write }: Runners): NotificationSender => ({
  send: (channel, payload) => write(() => checkNotification(channel, payload))
})
