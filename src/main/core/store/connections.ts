// Named queries over the connections table: the only place its SQL lives. The demo row
// (is_demo = 1) is written by upsertConnection and never listed, changed or deleted as a user
// connection. No secret is ever a column: the keychain holds those.
import { randomUUID } from 'node:crypto'
import type { ConnectionSettings, ConnectionView } from '../../../shared/connections'
import type { ReliabilityScaleSetting } from '../../../shared/reliability'
import type { ConnectionTarget } from '../api/connection'
import type { Db } from './db'
import { statement } from './statements'

/** A stored connection as the UI may see it, less the keychain's yes/no and what the app decides of it. */
export type ConnectionRecord = Omit<ConnectionView, 'secretStored' | 'proxyPasswordStored' | 'reliabilityScale' | 'polled'> & {
  reliabilityScale: ReliabilityScaleSetting
}

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
  proxy_url: string | null
  ca_certificate: string | null
  enabled: number
  lookback_days: number
  is_demo: number
  reliability_scale: ReliabilityScaleSetting
}

const SELECT = `SELECT id, name, base_url, auth_url, platform_id, tenant_id, client_id, origin, referer,
  proxy_url, ca_certificate, enabled, lookback_days, is_demo, reliability_scale FROM connections`

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
    proxyUrl: row.proxy_url,
    caCertificate: row.ca_certificate,
    enabled: row.enabled === 1,
    lookbackDays: row.lookback_days,
    isDemo: row.is_demo === 1,
    reliabilityScale: row.reliability_scale
  }
}

/** Settings as SQL parameters; an empty Origin/Referer/proxy/CA means none. The proxy URL comes
 *  here without its password (service.ts keeps that in the keychain). */
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
    proxyUrl: settings.proxyUrl || null,
    caCertificate: settings.caCertificate || null,
    enabled: settings.enabled ? 1 : 0,
    lookbackDays: settings.lookbackDays,
    reliabilityScale: settings.reliabilityScale
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
       proxy_url, ca_certificate, enabled, lookback_days, reliability_scale, is_demo, created_at, updated_at)
     VALUES (@id, @name, @baseUrl, @authUrl, @platformId, @tenantId, @clientId, @origin, @referer,
       @proxyUrl, @caCertificate, @enabled, @lookbackDays, @reliabilityScale, 0, @now, @now)`
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
       tenant_id = @tenantId, client_id = @clientId, origin = @origin, referer = @referer,
       proxy_url = @proxyUrl, ca_certificate = @caCertificate, enabled = @enabled,
       lookback_days = @lookbackDays, reliability_scale = @reliabilityScale, updated_at = @now
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

export interface ConnectionRow extends ConnectionTarget {
  isDemo: boolean
  /** Whether the app polls it; set on insert only (default true). */
  enabled?: boolean
}

/** The demo's row, or a command line's connection: created, or its target brought up to date. */
export function upsertConnection(db: Db, c: ConnectionRow, now = Date.now()): void {
  statement(
    db,
    `INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, enabled, created_at)
     VALUES (@id, @name, @baseUrl, @authUrl, @platformId, @tenantId, @clientId, @isDemo, @enabled, @now)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url,
       auth_url = excluded.auth_url, platform_id = excluded.platform_id, tenant_id = excluded.tenant_id,
       client_id = excluded.client_id, is_demo = excluded.is_demo`
  ).run({
    id: c.id,
    name: c.name,
    baseUrl: c.baseUrl,
    authUrl: c.authUrl,
    platformId: c.platformId,
    tenantId: c.tenantId,
    clientId: c.clientId,
    isDemo: c.isDemo ? 1 : 0,
    enabled: c.enabled === false ? 0 : 1,
    now
  })
}

/** Per connection: its scale setting, and how many of its sessions have a score and the highest
 *  (index sessions_by_score): what an `auto` scale is decided from. */
export interface ScaleFacts {
  id: string
  name: string
  setting: ReliabilityScaleSetting
  count: number
  max: number | null
}

export function connectionScaleFacts(db: Db): ScaleFacts[] {
  return statement(
    db,
    `SELECT c.id, c.name, c.reliability_scale AS setting,
       (SELECT COUNT(reliability_score) FROM sessions s WHERE s.connection_id = c.id) AS count,
       (SELECT MAX(reliability_score) FROM sessions s WHERE s.connection_id = c.id) AS max
     FROM connections c`
  ).all() as ScaleFacts[]
}

/** Whether a connection still exists, is enabled, and is the demo: why it may no longer be polled. */
export function connectionPresence(db: Db, id: string): { enabled: boolean; isDemo: boolean } | null {
  const row = statement(db, 'SELECT enabled, is_demo FROM connections WHERE id = ?').get(id) as
    | { enabled: number; is_demo: number }
    | undefined
  return row ? { enabled: row.enabled === 1, isDemo: row.is_demo === 1 } : null
}
