// The channels units of work notify on, and what a notification may carry: a revision, a
// connection id — never data (docs/scaling-plan.md section 3: the listener reads the rows). A
// channel is a fixed name, not a parameter: PostgreSQL's LISTEN takes an identifier, so only
// these reach it; and a payload stays far under NOTIFY's 8,000 bytes.

/** `ew_alerts`: an alerts revision was taken (its number); `ew_board`: a unit changed what a
 *  connection's live rows show (its id); `ew_settings`: the app's settings were saved (the server
 *  that saved them and the parts saved: fanout/settings-follower.ts); `ew_poll_requests`: a server
 *  asked the holder of a connection to run something with its poller (the connection's id);
 *  `ew_poll_answers`: a poll request was answered (its id). */
export const NOTIFY_CHANNELS = ['ew_alerts', 'ew_board', 'ew_settings', 'ew_poll_requests', 'ew_poll_answers'] as const
export type NotifyChannel = (typeof NOTIFY_CHANNELS)[number]

/** The most a payload may carry, in bytes of UTF-8: an id, not a record. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 200

/** Throws, in words, unless `channel` is one of ours. */
export function checkChannel(channel: string): asserts channel is NotifyChannel {
  if (!(NOTIFY_CHANNELS as readonly string[]).includes(channel)) {
    throw new Error(`"${channel.slice(0, 40)}" is no notification channel (the channels are ${NOTIFY_CHANNELS.join(', ')})`)
  }
}

/** Throws, in words, unless `channel` is ours and `payload` is small enough to be an id. */
export function checkNotification(channel: string, payload: string): void {
  checkChannel(channel)
  const bytes = Buffer.byteLength(payload, 'utf8')
  if (bytes > MAX_NOTIFY_PAYLOAD_BYTES) {
    throw new Error(`a notification on ${channel} carries ${bytes} bytes, over ${MAX_NOTIFY_PAYLOAD_BYTES}: notify ids, and let the listener read the rows`)
  }
}
