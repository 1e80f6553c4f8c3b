// Version 8: the reliability scale belongs to each connection (two tenants may report on
// different scales), not to the whole cache. A scale the operator had set app-wide is carried
// over to every connection. One index lets "the highest score of one connection" (what an
// `auto` scale is decided from) read a single entry; another lets History sorted by reliability
// walk the scores in order and stop at the page.
import type { Migration } from './types'

const SCALES = new Set(['0-1', '0-100'])

export const connectionReliabilityScale: Migration = {
  version: 8,
  name: 'connection-reliability-scale',
  up: (db) => {
    db.exec(`
      ALTER TABLE connections ADD COLUMN reliability_scale TEXT NOT NULL DEFAULT 'auto'
        CHECK (reliability_scale IN ('auto', '0-1', '0-100'));
      CREATE INDEX sessions_by_score ON sessions (connection_id, reliability_score);
      CREATE INDEX sessions_by_reliability ON sessions (reliability_score);
    `)
    const row = db.prepare("SELECT value_json FROM settings WHERE key = 'display'").get() as { value_json: string } | undefined
    if (!row) return
    let display: Record<string, unknown>
    try {
      const parsed = JSON.parse(row.value_json) as unknown
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return
      display = parsed as Record<string, unknown>
    } catch {
      return // an unreadable value falls back to the defaults when read; nothing to carry over
    }
    const scale = display.reliabilityScale
    if (typeof scale === 'string' && SCALES.has(scale)) {
      db.prepare('UPDATE connections SET reliability_scale = ?').run(scale)
    }
    delete display.reliabilityScale
    db.prepare("UPDATE settings SET value_json = ? WHERE key = 'display'").run(JSON.stringify(display))
  }
}
