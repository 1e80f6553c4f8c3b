// The link an alert (or a report line) carries back to its session, or null when it has none: an
// alert about no session (monitor-blind, a site's) links nowhere, and neither does a session whose
// id the service sent with a lone UTF-16 surrogate, which no URL can hold (encodeURIComponent
// refuses it): the alert still goes out, without the link, rather than not at all.
import { sessionLink, type LinkBase } from './session-link'

export function alertLink(base: LinkBase, about: { connectionId: string; eventSessionId: string | null }): string | null {
  if (about.eventSessionId === null) return null
  try {
    return sessionLink(base, { connectionId: about.connectionId, eventSessionId: about.eventSessionId })
  } catch (error) {
    if (error instanceof URIError) return null
    throw error
  }
}
