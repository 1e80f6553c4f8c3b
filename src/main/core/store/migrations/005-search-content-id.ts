// Version 5: the History screen searches content ids as well as names and session ids. The
// start-time indexes carry the content id too, so a search (a substring LIKE no B-tree can
// seek) and its count still read the index alone, never the rows with their raw JSON.
import type { Migration } from './types'

export const searchContentId: Migration = {
  version: 5,
  name: 'search-content-id',
  up: (db) => {
    db.exec(`
      DROP INDEX sessions_past_by_start;
      DROP INDEX sessions_past_all_by_start;
      CREATE INDEX sessions_past_by_start
        ON sessions (has_ended, connection_id, started_at, event_name, event_session_id, content_id);
      CREATE INDEX sessions_past_all_by_start
        ON sessions (has_ended, started_at, event_name, event_session_id, content_id);
    `)
  }
}
