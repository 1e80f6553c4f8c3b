// Named queries over the connections table: the only place its SQL lives (the demo row is
// written by store/sessions.ts). The demo row (is_demo = 1) is never listed, changed or deleted
// here as a user connection. No secret is ever a column: the keychain holds those.
import { randomUUID } from 'node:crypto'
import type { ConnectionSettings, ConnectionView } from '../../../shared/connections'
import type { Db } from '../store/db'
import { statement } from '../store/statements'

/** A stored connection as the UI may see it, less the keychain's yes/no. */
export type ConnectionRecord = Omit<ConnectionView, 'secretStored'>

interface Row {
  id: string
  name: string
  base_url: string
  auth_url: string
  platform_id: string
  tenant_id: string
  client_id: string
  origin: string | null
  referer: string | null
  enabled: number
  lookback_days: number
  is_demo: number
}

const SELECT = `SELECT id, name, base_url, auth_url, platform_id, tenant_id, client_id, origin, referer,
  enabled, lookback_days, is_demo FROM connections`

function toRecord(row: Row): ConnectionRecord {
  return {
    id: row.id,
    name: row.name,
    baseUrl: row.base_url,
    authUrl: row.auth_url,
    platformId: row.platform_id,
    tenantId: row.tenant_id,
    clientId: row.client_id,
    origin: row.origin,
    referer: row.referer,
    enabled: row.enabled === 1,
    lookbackDays: row.lookback_days,
    isDemo: row.is_demo === 1
  }
}

/** Settings as SQL parameters; an empty Origin/Referer means "do not send one". */
function params(settings: ConnectionSettings) {
  return {
    name: settings.name,
    baseUrl: settings.baseUrl,
    authUrl: settings.authUrl,
    platformId: settings.platformId,
    tenantId: settings.tenantId,
    clientId: settings.clientId,
    origin: settings.origin || null,
    referer: settings.referer || null,
    enabled: settings.enabled ? 1 : 0,
    lookbackDays: settings.lookbackDays
  }
}

export function listConnections(db: Db, options: { includeDemo?: boolean } = {}): ConnectionRecord[] {
  const where = options.includeDemo ? '' : ' WHERE is_demo = 0'
  const rows = statement(db, `${SELECT}${where} ORDER BY name COLLATE NOCASE, id`).all() as Row[]
  return rows.map(toRecord)
}

/** Any row, the demo one included (check `isDemo`). */
export function getConnection(db: Db, id: string): ConnectionRecord | null {
  const row = statement(db, `${SELECT} WHERE id = ?`).get(id) as Row | undefined
  return row ? toRecord(row) : null
}

/** Case-insensitive, as the unique index on name is (ASCII letters, SQLite's NOCASE). */
export function findConnectionByName(db: Db, name: string): ConnectionRecord | null {
  const row = statement(db, `${SELECT} WHERE name = ? COLLATE NOCASE`).get(name.trim()) as Row | undefined
  return row ? toRecord(row) : null
}

export function insertConnection(
  db: Db,
  settings: ConnectionSettings,
  id: string = randomUUID(),
  now = Date.now()
): ConnectionRecord {
  statement(
    db,
    `INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, origin, referer,
       enabled, lookback_days, is_demo, created_at, updated_at)
     VALUES (@id, @name, @baseUrl, @authUrl, @platformId, @tenantId, @clientId, @origin, @referer,
       @enabled, @lookbackDays, 0, @now, @now)`
  ).run({ ...params(settings), id, now })
  return mustGet(db, id)
}

/** Replaces a user connection's settings; null when there is no such (non-demo) row. */
export function updateConnection(
  db: Db,
  id: string,
  settings: ConnectionSettings,
  now = Date.now()
): ConnectionRecord | null {
  const { changes } = statement(
    db,
    `UPDATE connections SET name = @name, base_url = @baseUrl, auth_url = @authUrl, platform_id = @platformId,
       tenant_id = @tenantId, client_id = @clientId, origin = @origin, referer = @referer, enabled = @enabled,
       lookback_days = @lookbackDays, updated_at = @now
     WHERE id = @id AND is_demo = 0`
  ).run({ ...params(settings), id, now })
  return changes > 0 ? mustGet(db, id) : null
}

export function setConnectionEnabled(db: Db, id: string, enabled: boolean, now = Date.now()): ConnectionRecord | null {
  const { changes } = statement(
    db,
    'UPDATE connections SET enabled = ?, updated_at = ? WHERE id = ? AND is_demo = 0'
  ).run(enabled ? 1 : 0, now, id)
  return changes > 0 ? mustGet(db, id) : null
}

/**
 * Deletes a user connection; its cached sessions (and their snapshots and viewer lists) go with
 * it through ON DELETE CASCADE, which SQLite honours only with foreign keys on — so insist.
 */
export function deleteConnection(db: Db, id: string): boolean {
  if (db.pragma('foreign_keys', { simple: true }) !== 1) {
    throw new Error('foreign keys are off on this database: deleting a connection would orphan its sessions')
  }
  return statement(db, 'DELETE FROM connections WHERE id = ? AND is_demo = 0').run(id).changes > 0
}

function mustGet(db: Db, id: string): ConnectionRecord {
  const record = getConnection(db, id)
  if (!record) throw new Error(`connection ${id} vanished while being written`)
  return record
}
