// Version 11: names for site codes (issue 14). The API gives a viewer's site as a bare number;
// the operator names them once (Settings, or `eventwatch sites set CODE NAME`), and the viewer
// table, the breakdowns and the report show "311 · London" instead of "311".
import type { Migration } from './types'

export const siteNames: Migration = {
  version: 11,
  name: 'site-names',
  up: (db) => {
    db.exec(`
      CREATE TABLE site_names (
        code REAL NOT NULL PRIMARY KEY,
        name TEXT NOT NULL
      );
    `)
  }
}
