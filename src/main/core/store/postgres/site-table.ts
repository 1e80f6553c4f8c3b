// The site names of a Tx on PostgreSQL (store/site-names.ts: the same checks, in words).
import type { SiteName, SiteStore } from '../interface/sites'
import { siteNameProblem } from '../site-names'
import { all, type Runners } from './sql'

export function siteTable({ read, write }: Runners): SiteStore {
  return {
    names: () => all<SiteName>(read, 'SELECT code, name FROM site_names ORDER BY code'),
    async setName(code, name) {
      const problem = siteNameProblem(code, name)
      if (problem) throw new RangeError(problem)
      if (name === null) await write('DELETE FROM site_names WHERE code = $1', [code])
      else await write('INSERT INTO site_names (code, name) VALUES ($1, $2) ON CONFLICT (code) DO UPDATE SET name = excluded.name', [code, name.trim()])
    }
  }
}
