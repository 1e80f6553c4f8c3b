// The sites concern of the Store: the names an operator gives the service's site codes (the API
// only says "siteCode: 311"). Every screen and text that shows a site names it from here.
import type { SiteName } from '../site-names'

export type { SiteName }

export interface SiteReads {
  /** Every named site, by code. */
  names(): Promise<SiteName[]>
}

export interface SiteStore extends SiteReads {
  /** Names the site (replacing its name), or forgets its name with null; a name that cannot be
   *  kept (empty, too long, several lines) throws a RangeError saying why, and writes nothing. */
  setName(code: number, name: string | null): Promise<void>
}
