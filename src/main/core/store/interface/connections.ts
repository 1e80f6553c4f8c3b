// The connections concern of the Store: the tenants the app polls (no secret is ever a column).
import type { ConnectionSettings } from '../../../../shared/connections'
import type { ConnectionRecord } from '../connections'
import type { ScaleBook } from '../reliability-scales'

export type { ConnectionRecord, ScaleBook }

export interface ConnectionReads {
  /** User connections by name; the demo row only when asked. */
  list(options?: { includeDemo?: boolean }): Promise<ConnectionRecord[]>
  get(id: string): Promise<ConnectionRecord | null>
  findByName(name: string): Promise<ConnectionRecord | null>
  /** Each connection's reliability scale (demo included), decided from its own setting and scores. */
  scales(): Promise<ScaleBook>
}

export interface ConnectionStore extends ConnectionReads {
  insert(settings: ConnectionSettings, id: string, now: number): Promise<ConnectionRecord>
  /** Null when there is no such user connection. */
  update(id: string, settings: ConnectionSettings, now: number): Promise<ConnectionRecord | null>
  setEnabled(id: string, enabled: boolean, now: number): Promise<ConnectionRecord | null>
  /** False when there was no such user connection; its sessions, alerts and lists go with it. */
  remove(id: string): Promise<boolean>
}
