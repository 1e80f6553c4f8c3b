// The site names of a Tx, on one SQLite connection: today's synchronous store functions, each
// answered as a promise.
import type { Db } from '../db'
import type { SiteStore } from '../interface/sites'
import { listSiteNames, setSiteName } from '../site-names'
import type { Runners } from './runners'

export function siteTable(db: Db, { read, write }: Runners): SiteStore {
  return {
    names: () => read(() => listSiteNames(db)),
    setName: (code, name) => write(() => setSiteName(db, code, name))
  }
}
