// Everything a Store answers about its data, through `store.read` only: every read of every concern,
// asked for every connection, session, alert, webhook, window and user it holds. Two stores on the
// same data (a cache and its copy on another backend) must answer the same, to the last field.
import { BREAKDOWN_DIMENSIONS } from '../../src/main/core/store/queries/breakdown'
import type { Page, PastSession } from '../../src/main/core/store/queries/past-sessions'
import type { Store } from '../../src/main/core/store/interface/store'
import type { SettingsKey } from '../../src/main/core/store/interface/settings'

const SETTINGS_KEYS: SettingsKey[] = ['retention', 'cadences', 'thresholds', 'display', 'alertRules', 'desktop']
const REPEATS = ['none', 'daily', 'weekly'] as const

/** A read whose order the interface does not promise (a set of ids, of alerts): in one order. */
const unordered = async (answer: Promise<readonly unknown[]>): Promise<unknown[]> =>
  [...(await answer)].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))

/** Past sessions sorted by a figure: equal figures in key order (SQLite breaks such ties by
 *  rowid, which a copy does not keep; PostgreSQL by the key). */
async function tiesByKey(answer: Promise<Page<PastSession>>, figure: 'peakViewers' | 'reliabilityScore'): Promise<Page<PastSession>> {
  const page = await answer
  const rows = [...page.rows]
  const key = (row: PastSession): string => `${row.connectionId}/${row.eventSessionId}`
  for (let start = 0; start < rows.length; ) {
    let end = start + 1
    while (end < rows.length && rows[end]![figure] === rows[start]![figure]) end++
    rows.splice(start, end - start, ...rows.slice(start, end).sort((a, b) => (key(a) < key(b) ? -1 : 1)))
    start = end
  }
  return { ...page, rows }
}

export interface ReadScope {
  /** The instant the reads that take one are asked at. */
  now: number
}

export async function everythingRead(store: Store, scope: ReadScope): Promise<Record<string, unknown>> {
  const { read } = store
  const { now } = scope
  const answers: Record<string, unknown> = {}
  const ask = async (name: string, answer: Promise<unknown>): Promise<void> => {
    answers[name] = await answer
  }

  const connections = await read.connections.list({ includeDemo: true })
  answers['connections.list'] = connections
  await ask('connections.scaleFacts', read.connections.scaleFacts())
  await ask('sessions.live', read.sessions.live())
  await ask('sessions.newestPollAt', read.sessions.newestPollAt())
  await ask('sessions.counts', read.sessions.counts())
  for (const sort of ['started', 'name'] as const) await ask(`sessions.past.${sort}`, read.sessions.past({ sort, includeLive: true, limit: 500 }))
  await ask('sessions.past.viewers', tiesByKey(read.sessions.past({ sort: 'viewers', includeLive: true, limit: 500 }), 'peakViewers'))
  await ask('sessions.past.reliability', tiesByKey(read.sessions.past({ sort: 'reliability', includeLive: true, limit: 500 }), 'reliabilityScore'))
  await ask('sessions.past.search', read.sessions.past({ sort: 'started', search: 'a', descending: true }))
  await ask('alerts.list', read.alerts.list({ historyHours: 24 * 365 }, now))
  await ask('alerts.openCounts', read.alerts.openCounts())
  await ask('alerts.openAboutSessions', read.alerts.openAboutSessions())
  await ask('alerts.pausedUntil', read.alerts.pausedUntil(now))
  await ask('alerts.unresolved', unordered(read.alerts.unresolved()))
  await ask('alerts.blind', read.alerts.blind())
  await ask('alerts.firingCriticals', read.alerts.firingCriticals())
  for (const key of SETTINGS_KEYS) await ask(`settings.${key}`, read.settings.get(key))
  await ask('webhooks.outboxHeads', read.webhooks.outboxHeads())
  await ask('webhooks.pending', read.webhooks.pending())
  const windows = await read.maintenance.list()
  answers['maintenance.list'] = windows
  for (const repeat of REPEATS) {
    const longest = await read.maintenance.longest(repeat)
    answers[`maintenance.longest.${repeat}`] = longest
    answers[`maintenance.zones.${repeat}`] = await read.maintenance.zones(repeat)
    if (repeat === 'none' && longest !== null) answers['maintenance.onceInForce'] = await read.maintenance.onceInForce(Date.parse('2031-03-01T23:00:00Z'), longest)
  }
  for (const window of windows) await ask(`maintenance.get.${window.id}`, read.maintenance.get(window.id))
  await ask('runs.diagnostics', read.runs.diagnostics())
  await ask('runs.diagnostics.app', read.runs.diagnostics(200, null))
  const users = await read.team.users.list()
  answers['team.users.list'] = users
  for (const user of users) {
    await ask(`team.users.find.${user.name}`, read.team.users.find(user.name))
    await ask(`team.users.display.${user.name}`, read.team.users.display(user.name))
  }
  await ask('team.audit.list', read.team.audit.list({ limit: 1000 }))
  await ask('sites.names', read.sites.names())
  await ask('coreState.revision.alerts', read.coreState.revision('alerts'))
  await ask('coreState.revision.board', read.coreState.revision('board'))
  await ask('coreState.pausedPolling', read.coreState.pausedPolling())
  await ask('coreState.pollerStatuses', read.coreState.pollerStatuses())
  await ask('coreState.cooling', read.coreState.cooling())
  await ask('coreState.repeatSteps', read.coreState.repeatSteps())
  await ask('coreState.alertChangesSince', read.coreState.alertChangesSince(0, 1000))
  // Any few viewers of the lists (no order, no choice promised): which rows a backend picks may differ, how many may not.
  await ask('viewers.unitSample', read.viewers.unitSample().then((sample) => sample.length))

  for (const webhook of await read.webhooks.list()) {
    await ask(`webhooks.get.${webhook.id}`, read.webhooks.get(webhook.id))
    await ask(`webhooks.findByName.${webhook.id}`, read.webhooks.findByName(webhook.name.toUpperCase()))
    await ask(`webhooks.stats.${webhook.id}`, read.webhooks.stats(webhook.id))
  }
  answers['webhooks.list'] = await read.webhooks.list()

  const alertIds: number[] = []
  for (const connection of connections) {
    const c = connection.id
    await ask(`connections.get.${c}`, read.connections.get(c))
    await ask(`connections.findByName.${c}`, read.connections.findByName(connection.name.toLowerCase()))
    await ask(`sessions.live.${c}`, read.sessions.live(c))
    await ask(`sessions.liveIds.${c}`, unordered(read.sessions.liveIds(c)))
    await ask(`sessions.newestPollAt.${c}`, read.sessions.newestPollAt(c))
    await ask(`sessions.past.${c}`, tiesByKey(read.sessions.past({ connectionId: c, sort: 'reliability', includeLive: true }), 'reliabilityScore'))
    await ask(`alerts.open.${c}`, read.alerts.open(c))
    await ask(`alerts.lastResolved.${c}`, read.alerts.lastResolved(c, 0))
    await ask(`alerts.overrides.${c}`, read.alerts.overrides(c))
    const ids = await read.alerts.idsOf(c)
    answers[`alerts.idsOf.${c}`] = await unordered(Promise.resolve(ids))
    alertIds.push(...ids)
    await ask(`runs.list.${c}`, read.runs.list(c))
    await ask(`runs.lastFinished.${c}`, read.runs.lastFinished(c))
    await ask(`runs.diagnostics.${c}`, read.runs.diagnostics(200, c))
    await ask(`coreState.judged.${c}`, read.coreState.judged(c))
    const sessions = (await read.sessions.past({ connectionId: c, sort: 'started', includeLive: true, limit: 500 })).rows
    for (const { eventSessionId: s } of sessions) {
      const key = `${c}/${s}`
      await ask(`sessions.row.${key}`, read.sessions.row(c, s))
      await ask(`sessions.exported.${key}`, read.sessions.exported(c, s))
      await ask(`snapshots.since.${key}`, read.snapshots.since(c, s, 0))
      await ask(`snapshots.latest.${key}`, read.snapshots.latest(c, s))
      await ask(`snapshots.chart.${key}`, read.snapshots.chart(c, s))
      await ask(`snapshots.exportWindow.${key}`, read.snapshots.exportWindow({ connectionId: c, eventSessionId: s, offset: 0, limit: 1000 }))
      await ask(`alerts.openAboutSites.${key}`, read.alerts.openAboutSites(c, s))
      await viewerReads(store, c, s, ask)
    }
  }
  for (const id of alertIds) await ask(`alerts.get.${id}`, read.alerts.get(id))
  await ask('alerts.many', unordered(read.alerts.many(alertIds)))
  return answers
}

async function viewerReads(store: Store, c: string, s: string, ask: (name: string, answer: Promise<unknown>) => Promise<void>): Promise<void> {
  const { viewers } = store.read
  const key = `${c}/${s}`
  await ask(`viewers.sessionsWithLists.${c}`, viewers.sessionsWithLists(c))
  await ask(`viewers.listFetchedAt.${key}`, viewers.listFetchedAt(c, s))
  const page = await viewers.page(c, s, { sort: 'reliabilityScore', limit: 1000 })
  await ask(`viewers.page.${key}`, Promise.resolve(page))
  await ask(`viewers.window.${key}`, viewers.window({ connectionId: c, eventSessionId: s, offset: 0, limit: 1000 }))
  const first = page.rows[0]?.viewerId
  if (first) await ask(`viewers.viewer.${key}`, viewers.viewer(c, s, first))
  for (const dimension of BREAKDOWN_DIMENSIONS) await ask(`viewers.breakdown.${dimension}.${key}`, viewers.breakdown(c, s, dimension))
  await ask(`viewers.story.${key}`, viewers.story(c, s))
}

/**
 * An answer with every fraction rounded to 12 significant digits: a sum of doubles depends on the
 * order it is added in, and SQLite and PostgreSQL add a list's viewing time in their own orders
 * (16073 on one, 16072.999999999998 on the other). Integers, texts and shapes stay exact.
 */
export function roundedFractions(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Number(value.toPrecision(12))
  if (Array.isArray(value)) return value.map(roundedFractions)
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, roundedFractions(v)]))
  if (value instanceof Set) return new Set([...value].map(roundedFractions))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundedFractions(v)]))
  return value
}
