// A team server that says whatever a test tells it to, over real loopback HTTP: each request is
// answered from a table (a valid world by default, or any body a test sets, malformed or not), and
// the event stream carries what the test pushes, raw if need be. For the team client's contract
// checks and epochs; the real server is in team-server.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decideSituation, type SituationFacts } from '../../src/main/core/alerts/situation'
import { decideConnectionStatuses, decidePollSummary } from '../../src/main/core/sync/connection-status'
import type { AlertSituation } from '../../src/shared/alerts'
import { requests } from '../../src/shared/contract'
import type { LiveSession, Status } from '../../src/shared/domain'
import { liveSession } from '../unit/desktop/alert-fixtures'

export const AT = '2026-03-01T12:00:00.000Z'

/** What the server holds: its epoch, its counts, its live sessions and its alert facts. */
export interface TeamWorld {
  epoch: string
  boardRevision: number
  alertRevision: number
  sessions: LiveSession[]
  facts: Partial<Omit<SituationFacts, 'revision' | 'epoch' | 'now'>>
}

export function situationIn(world: TeamWorld): AlertSituation {
  const quiet = { open: [], cooling: [], blind: [], unconfirmed: [], pollingPaused: false, notificationsPausedUntil: null }
  return decideSituation({ ...quiet, ...world.facts, revision: world.alertRevision, epoch: world.epoch, now: Date.parse(AT) })
}

/** A server polling one connection, all well: the core's own verdicts on it. */
function statusOf(): Status {
  const facts = { connectionId: 'c1', connectionName: 'Contoso', demo: false, disabled: false, paused: false, state: 'ok', lastUpdateAt: Date.parse(AT), lastError: null, offlineSince: null } as const
  const connections = decideConnectionStatuses([facts], { now: Date.parse(AT), pollIntervalSeconds: 15 })
  return {
    mode: 'connected',
    connectionName: 'Contoso',
    connections,
    summary: decidePollSummary(connections),
    problem: null,
    pollState: 'ok',
    lastUpdateAt: AT,
    lastGoodAt: AT,
    lastError: null,
    offlineSince: null,
    paused: false,
    pollIntervalSeconds: 15
  }
}

/** A live row of the server's one connection. */
export const liveRow = (eventSessionId: string, eventName: string): LiveSession =>
  liveSession({ eventSessionId, eventName, contentId: `content-${eventSessionId}` })

/** The world's answers, each checked against the contract here (a wrong fixture fails at once). */
function validAnswers(world: TeamWorld): Map<string, unknown> {
  const values: Record<string, unknown> = {
    getStatus: statusOf(),
    getIdentity: { name: 'alice', role: 'operator', team: true },
    listAlerts: { alerts: [], situation: situationIn(world) },
    listLiveSessions: { revision: world.boardRevision, epoch: world.epoch, sessions: world.sessions }
  }
  for (const [name, value] of Object.entries(values)) requests[name as keyof typeof requests].result.parse(value)
  return new Map(Object.entries(values).map(([name, value]) => [name, { ok: true, value }]))
}

/** A body sent as it is, not as JSON. */
export interface Raw {
  raw: string
}

export interface FakeTeamServer {
  origin: string
  /** Each request's answer body (a Result, or anything a test sets); others are refused. */
  answers: Map<string, unknown>
  /** The requests asked, by name, in order. */
  readonly asked: string[]
  /** How many event streams were opened. */
  readonly streams: number
  /** Answers from now on as `world` says (a restarted server, a new epoch). */
  become(world: TeamWorld): void
  /** Sends a push on every open stream: JSON of `data`, or `data.raw` as it is. */
  push(event: string, data: unknown): void
  /** Ends every open stream, as a server that stops does. */
  dropStreams(): void
  close(): Promise<void>
}

export async function startFakeTeamServer(world: TeamWorld): Promise<FakeTeamServer> {
  const open = new Set<ServerResponse>()
  const asked: string[] = []
  let streams = 0
  const fake = { answers: validAnswers(world) } as { answers: Map<string, unknown> }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname === '/api/events') {
      streams++
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' })
      res.write(': connected\n\n')
      open.add(res)
      res.on('close', () => open.delete(res))
      return
    }
    const name = decodeURIComponent(url.pathname.replace(/^\/api\/request\//, ''))
    req.resume()
    req.on('end', () => {
      asked.push(name)
      const answer = fake.answers.get(name) ?? { ok: false, error: { code: 'unknown-request', message: `Not in this test: ${name}.` } }
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' })
      res.end(isRaw(answer) ? answer.raw : JSON.stringify(answer))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    origin: `http://127.0.0.1:${port}`,
    get answers() {
      return fake.answers
    },
    asked,
    get streams() {
      return streams
    },
    become(next) {
      fake.answers = validAnswers(next)
    },
    push(event, data) {
      const text = isRaw(data) ? data.raw : JSON.stringify(data)
      for (const res of open) res.write(`event: ${event}\ndata: ${text}\n\n`)
    },
    dropStreams() {
      for (const res of open) res.destroy()
      open.clear()
    },
    close: async () => {
      for (const res of open) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

const isRaw = (value: unknown): value is Raw => typeof value === 'object' && value !== null && typeof (value as Raw).raw === 'string'
