// How a text names a site (issue 24): by the name the operator gave its code (`eventwatch sites
// set 415 "Leeds office"`, Settings → Site names) when it has one, else "Site 415", which is all
// the service says of it. Alerts, the wall, notifications, webhooks and the report all name a
// site through here.
//
// A site alert's summary is stored as its rule wrote it, naming the code ("Site 415: reliability
// 31.1 …"): the code is what the service said, and a name may be given or changed after the alert
// fired. The core reads every alert through namedSiteSummary, so it reads by the site's name as it
// is now, whenever that name was given.

/** "Leeds office", or "Site 415" while the site has no name. */
export function siteLabel(code: string, name: string | null | undefined): string {
  return name !== null && name !== undefined && name.trim() !== '' ? name.trim() : `Site ${code}`
}

/** A site alert's stored summary under its site's current name; any other summary as it is. */
export function namedSiteSummary(summary: string, code: string | null, name: string | null | undefined): string {
  if (code === null) return summary
  const coded = `${siteLabel(code, null)}:`
  return summary.startsWith(coded) ? `${siteLabel(code, name)}${summary.slice(coded.length - 1)}` : summary
}
