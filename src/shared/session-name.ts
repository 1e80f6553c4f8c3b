// How a session is named to a person, in the same words on every face (issue 24).
//
//   - Inside its connection's context (its Live row, its wall tile, its drill-down, History: each
//     shows the connection beside it): the event's name alone.
//   - Away from it (the wall's line of alerts, the alerts view, notifications, webhooks, the tray
//     menu): "All-hands Q1 (Fabrikam)" whenever more than one connection is polled, so two
//     tenants' sessions of one name read apart. With one connection the connection is never in
//     doubt, and a one-connection desk stays uncluttered.
//   - A session without a name reads "Untitled event 3f2a9c1b" (its id's first characters)
//     everywhere, so two unnamed sessions read apart too.
//
// Pure and raw: a screen shows the parts through PlainName (each isolated, so a right-to-left
// event name cannot take the connection's into its direction); a line of text through sessionTitle,
// which makes each part plain (shared/plain-text.ts).
import { plainText } from './plain-text'

export interface NamedSession {
  eventName: string | null
  eventSessionId: string
  connectionName: string
}

/** Characters of the session id an unnamed session is told apart by. */
const SHORT_ID = 8

/** "Untitled event 3f2a9c1b": a session the service gave no name, the same words everywhere. */
export function untitledName(eventSessionId: string): string {
  // By characters, not code units: an id is anyone's text and may hold a surrogate pair.
  const short = Array.from(eventSessionId.trim()).slice(0, SHORT_ID).join('')
  return short === '' ? 'Untitled event' : `Untitled event ${short}`
}

/** A session's name where its connection is shown beside it: the event's name, else untitledName. */
export function sessionName(session: Pick<NamedSession, 'eventName' | 'eventSessionId'>): string {
  return session.eventName !== null && session.eventName.trim() !== '' ? session.eventName : untitledName(session.eventSessionId)
}

/** How many connections the situation says are polled (one, when it does not say). */
export const connectionsPolledOf = (situation: { connectionsPolled?: number } | null | undefined): number => situation?.connectionsPolled ?? 1

/** Whether a session named away from its connection names the connection: when several are polled. */
export const namesConnection = (connectionsPolled: number): boolean => connectionsPolled > 1

/** A session's name away from its connection, in parts: the connection is null when not named. */
export interface SessionTitleParts {
  name: string
  connection: string | null
}

export function sessionTitleParts(session: NamedSession, connectionsPolled: number): SessionTitleParts {
  return { name: sessionName(session), connection: namesConnection(connectionsPolled) ? session.connectionName : null }
}

/** What an alert is about, away from its connection: its session's title, or (a connection-wide
 *  alert, "cannot reach the service") the connection itself. */
export function alertSubjectParts(
  alert: { eventName: string | null; eventSessionId: string | null; connectionName: string },
  connectionsPolled: number
): SessionTitleParts {
  if (alert.eventSessionId === null) return { name: alert.connectionName, connection: null }
  return sessionTitleParts({ ...alert, eventSessionId: alert.eventSessionId }, connectionsPolled)
}

/** The parts as one line of plain text: "All-hands Q1 (Fabrikam)", "All-hands Q1". */
export function titleText(parts: SessionTitleParts): string {
  return parts.connection === null ? plainText(parts.name) : `${plainText(parts.name)} (${plainText(parts.connection)})`
}

/** A session away from its connection as one line of plain text (notifications, webhooks, the tray). */
export const sessionTitle = (session: NamedSession, connectionsPolled: number): string =>
  titleText(sessionTitleParts(session, connectionsPolled))
