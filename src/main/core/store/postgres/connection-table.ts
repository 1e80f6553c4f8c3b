// The connections of a Tx on PostgreSQL: store/connections.ts's queries in PostgreSQL's dialect
// (boolean flags, lower(name) for SQLite's NOCASE). No secret is ever a column.
import type { ConnectionSettings } from '../../../../shared/connections'
import type { ReliabilityScaleSetting } from '../../../../shared/reliability'
import type { ConnectionRecord, ConnectionStore, ScaleFacts } from '../interface/connections'
import { all, one, type Runners, type Sql } from './sql'

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
  enabled: boolean
  lookback_days: number
  is_demo: boolean
  reliability_scale: ReliabilityScaleSetting
}

const SELECT = `SELECT id, name, base_url, auth_url, platform_id, tenant_id, client_id, origin, referer,
  proxy_url, ca_certificate, enabled, lookback_days, is_demo, reliability_scale FROM connections`

const toRecord = (row: Row): ConnectionRecord => ({
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
  enabled: row.enabled,
  lookbackDays: row.lookback_days,
  isDemo: row.is_demo,
  reliabilityScale: row.reliability_scale
})

/** Settings as $2…$14 (after the id); an empty Origin/Referer/proxy/CA means none. */
const settingValues = (s: ConnectionSettings): unknown[] => [
  s.name,
  s.baseUrl,
  s.authUrl,
  s.platformId,
  s.tenantId,
  s.clientId,
  s.origin || null,
  s.referer || null,
  s.proxyUrl || null,
  s.caCertificate || null,
  s.enabled,
  s.lookbackDays,
  s.reliabilityScale
]

async function get(sql: Sql, id: string): Promise<ConnectionRecord | null> {
  const row = await one<Row>(sql, `${SELECT} WHERE id = $1`, [id])
  return row ? toRecord(row) : null
}

async function mustGet(sql: Sql, id: string): Promise<ConnectionRecord> {
  const record = await get(sql, id)
  if (!record) throw new Error(`connection ${id} vanished while being written`)
  return record
}

export function connectionTable({ read, write }: Runners): ConnectionStore {
  return {
    async list(options = {}) {
      const where = options.includeDemo ? '' : ' WHERE NOT is_demo'
      return (await all<Row>(read, `${SELECT}${where} ORDER BY lower(name), id`)).map(toRecord)
    },
    get: (id) => get(read, id),
    async findByName(name) {
      const row = await one<Row>(read, `${SELECT} WHERE lower(name) = lower($1)`, [name.trim()])
      return row ? toRecord(row) : null
    },
    scaleFacts: () =>
      all<ScaleFacts>(
        read,
        `SELECT c.id, c.name, c.reliability_scale AS setting,
           (SELECT count(reliability_score) FROM sessions s WHERE s.connection_id = c.id) AS count,
           (SELECT max(reliability_score) FROM sessions s WHERE s.connection_id = c.id) AS max
         FROM connections c`
      ),
    async insert(settings, id, now) {
      await write(
        `INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, origin, referer,
           proxy_url, ca_certificate, enabled, lookback_days, reliability_scale, is_demo, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, false, $15, $15)`,
        [id, ...settingValues(settings), now]
      )
      return mustGet(write, id)
    },
    async update(id, settings, now) {
      const { count } = await write(
        `UPDATE connections SET name = $2, base_url = $3, auth_url = $4, platform_id = $5, tenant_id = $6,
           client_id = $7, origin = $8, referer = $9, proxy_url = $10, ca_certificate = $11, enabled = $12,
           lookback_days = $13, reliability_scale = $14, updated_at = $15
         WHERE id = $1 AND NOT is_demo`,
        [id, ...settingValues(settings), now]
      )
      return count > 0 ? mustGet(write, id) : null
    },
    async setEnabled(id, enabled, now) {
      const { count } = await write('UPDATE connections SET enabled = $2, updated_at = $3 WHERE id = $1 AND NOT is_demo', [id, enabled, now])
      return count > 0 ? mustGet(write, id) : null
    },
    // Its sessions, snapshots, lists, alerts, runs and diagnostics go with it (ON DELETE CASCADE).
    async remove(id) {
      return (await write('DELETE FROM connections WHERE id = $1 AND NOT is_demo', [id])).count > 0
    },
    async upsert(c, now) {
      await write(
        `INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, enabled, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url,
           auth_url = excluded.auth_url, platform_id = excluded.platform_id, tenant_id = excluded.tenant_id,
           client_id = excluded.client_id, is_demo = excluded.is_demo`,
        [c.id, c.name, c.baseUrl, c.authUrl, c.platformId, c.tenantId, c.clientId, c.isDemo, c.enabled !== false, now]
      )
    }
  }
}
