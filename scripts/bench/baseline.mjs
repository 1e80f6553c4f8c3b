// The ingest baseline: what `sync --once` must at least do, and nothing more. Fetch a token,
// list the sessions (every page), then every viewer page of every live session over the same
// loopback with the same concurrency as sync (4 sessions at a time), JSON.parse each body, and
// store nothing. Plain JavaScript on plain Node: no tsx, no zod, no SQLite.
//
//   EVENTWATCH_CLIENT_SECRET=… node scripts/bench/baseline.mjs BASE_URL AUTH_URL PLATFORM TENANT CLIENT_ID
const [baseUrl, authUrl, platformId, tenantId, clientId] = process.argv.slice(2)
const clientSecret = process.env.EVENTWATCH_CLIENT_SECRET
if (!baseUrl || !authUrl || !platformId || !tenantId || !clientId || !clientSecret) {
  process.stderr.write('usage: EVENTWATCH_CLIENT_SECRET=… baseline.mjs BASE_URL AUTH_URL PLATFORM TENANT CLIENT_ID\n')
  process.exit(2)
}
const CONCURRENCY = 4

async function getJson(url, init) {
  const response = await fetch(url, init)
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`)
  return JSON.parse(await response.text())
}

const token = await getJson(`${authUrl}/v2/auth/token`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })
})
const headers = {
  Accept: 'application/json',
  Authorization: `Bearer ${token.access_token}`,
  'platform-id': platformId,
  'tenant-id': tenantId
}

async function allPages(path, onPage) {
  let cursor
  do {
    const url = new URL(`${baseUrl}${path}`)
    if (cursor) url.searchParams.set('cursor', cursor)
    const page = await getJson(url, { headers })
    onPage(page)
    cursor = page.pagination?.nextCursor
  } while (cursor)
}

const sessions = []
const from = new Date(Date.now() - 7 * 86_400_000).toISOString()
await allPages(`/v1/events/sessions?startedAtFrom=${encodeURIComponent(from)}`, (page) => sessions.push(...(page.data ?? [])))
const live = sessions.filter((s) => s.hasEnded !== true && s.hasEnded !== 'true')

let viewers = 0
let next = 0
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < live.length) {
      const session = live[next++]
      await allPages(`/v1/events/sessions/${encodeURIComponent(session.eventSessionId)}/viewers`, (page) => {
        viewers += page.data?.length ?? 0
      })
    }
  })
)
process.stdout.write(`${JSON.stringify({ sessions: sessions.length, live: live.length, viewers })}\n`)
