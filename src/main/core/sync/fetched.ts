// What a unit of work fetched from the service, kept until the fetching is over and then stored
// in one unit of the Store (a unit never awaits the network): each page or record with the time
// it arrived, which is the time it is stored as polled at, as when it was stored on arrival. The
// unit tells the other servers that the connection's live rows changed (ew_board, once it commits).
import type { EventSessionRecord } from '../api/schemas'
import type { Tx } from '../store/interface/store'
import type { TouchedSessions } from './touched'

export interface Arrived<T> {
  value: T
  at: number
}

/** Pages of the session list, each upserted as polled when it arrived. */
export async function storeListPages(tx: Tx, connectionId: string, pages: readonly Arrived<EventSessionRecord[]>[]): Promise<void> {
  for (const page of pages) await tx.sessions.storeList(connectionId, page.value, page.at)
  await boardChanged(tx, connectionId)
}

/** Sessions' fresh records, each with its snapshot. */
export async function storeDetails(tx: Tx, connectionId: string, details: readonly Arrived<EventSessionRecord>[]): Promise<void> {
  for (const detail of details) await tx.sessions.storeSnapshot(connectionId, detail.value, detail.at)
  await boardChanged(tx, connectionId)
}

/** The connection's live rows changed in this unit: every server's board follows once it commits. */
export const boardChanged = (tx: Tx, connectionId: string): Promise<void> => tx.notifications.send('ew_board', connectionId)

/** The sessions of stored pages, as touched (once their unit has committed). */
export function touchListed(touched: TouchedSessions, pages: readonly Arrived<EventSessionRecord[]>[]): void {
  for (const page of pages) touched.addAll(page.value.map((s) => s.eventSessionId))
}
