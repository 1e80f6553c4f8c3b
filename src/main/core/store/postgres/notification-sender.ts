// A unit's notifications on PostgreSQL: pg_notify inside its transaction, which PostgreSQL
// delivers to every session LISTENing on the channel when — and only if — it commits, in commit
// order (identical ones of one transaction folded into one). The listening side is
// pg-listener.ts.
import type { NotificationSender } from '../interface/notifications'
import { checkNotification } from '../notify-channels'
import type { Runners } from './sql'

export const notificationSender = ({ write }: Runners): NotificationSender => ({
  async send(channel, payload) {
    checkNotification(channel, payload)
    await write('SELECT pg_notify($1, $2)', [channel, payload])
  }
})
