// The connections concern of the Store: the tenants the app polls (no secret is ever a column).
import type { ConnectionSettings } from '../../../../shared/connections'
import type { ConnectionRecord, ConnectionRow, ScaleFacts } from '../connections'

export type { ConnectionRecord, ConnectionRow, ScaleFacts }

export interface ConnectionReads {
  /** User connections by name; the demo row only when asked. */
  list(options?: { includeDemo?: boolean }): Promise<ConnectionRecord[]>
  get(id: string): Promise<ConnectionRecord | null>
  findByName(name: string): Promise<ConnectionRecord | null>
  /** Every connection's scale setting and its sessions' scores: what an `auto` scale is decided from. */
  scaleFacts(): Promise<ScaleFacts[]>
}

export interface ConnectionStore extends ConnectionReads {
  insert(settings: ConnectionSettings, id: string, now: number): Promise<ConnectionRecord>
  /** Null when there is no such user connection. */
  update(id: string, settings: ConnectionSettings, now: number): Promise<ConnectionRecord | null>
  setEnabled(id: string, enabled: boolean, now: number): Promise<ConnectionRecord | null>
  /** False when there was no such user connection; its sessions, alerts and lists go with it. */
  remove(id: string): Promise<boolean>
  /** The demo's row, or a command line's connection: created, or its target brought up to date. */
  upsert(row: ConnectionRow, now: number): Promise<void>
}
