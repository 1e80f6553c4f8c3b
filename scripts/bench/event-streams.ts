// Event streams (`GET /api/events`, server-sent events) open on one server as the bench's
// browsers, recording when each snapshot first reached each stream on the live board's pushes
// (`sessionsChanged`: a row's `latestPoint`), and when each notification pause did on the alerts
// pushes (`alertsChanged`: the situation's `notificationsPausedUntil`). A push is stamped when its
// last bytes reach this process, before it is parsed; the parsing waits for the event loop's next
// turn, so the pushes that arrived together on other streams are stamped first.
import { request, type ClientRequest } from 'node:http'
import type { AlertsChanged } from '../../src/shared/alerts'
import type { SessionsChanged } from '../../src/shared/domain'

/** When a stream received a snapshot of a session: `takenAt` is the snapshot's time. */
interface Seen {
  takenAt: number
  at: number
}

const now = (): number => performance.timeOrigin + performance.now()

export class EventStreams {
  private readonly requests: ClientRequest[] = []
  /** Per stream, per "connection/session": the snapshots seen, in arrival order. */
  private readonly seen: Map<string, Seen[]>[] = []
  /** Per stream: when each `notificationsPausedUntil` first arrived. */
  private readonly pauses: Map<string, number>[] = []
  private parsing: { stream: number; at: number; name: string; data: string }[] = []
  /** Pushes received, all streams together, by event name. */
  readonly pushes = new Map<string, number>()

  private constructor() {}

  /** Opens `count` streams on `origin` and resolves once every one has said it is connected. */
  static async open(origin: string, token: string, count: number): Promise<EventStreams> {
    const streams = new EventStreams()
    const { hostname, port } = new URL(origin)
    await Promise.all(Array.from({ length: count }, (_, index) => streams.openOne(hostname, Number(port), token, index)))
    return streams
  }

  private openOne(host: string, port: number, token: string, index: number): Promise<void> {
    this.seen[index] = new Map()
    this.pauses[index] = new Map()
    return new Promise((resolve, reject) => {
      const req = request({ host, port, path: '/api/events', agent: false, headers: { Authorization: `Bearer ${token}` } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`event stream ${index}: HTTP ${res.statusCode}`))
        res.setEncoding('utf8')
        let buffer = ''
        res.on('data', (chunk: string) => {
          const at = now()
          buffer += chunk
          let end: number
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            if (block.startsWith(': connected')) resolve()
            const name = /^event: (\w+)\n/.exec(block)?.[1]
            if (name) this.later({ stream: index, at, name, data: block.slice(block.indexOf('data: ') + 6) })
          }
        })
      })
      req.on('error', reject)
      req.end()
      this.requests.push(req)
    })
  }

  private later(push: { stream: number; at: number; name: string; data: string }): void {
    if (this.parsing.length === 0) setImmediate(() => this.parse())
    this.parsing.push(push)
  }

  private parse(): void {
    const pushes = this.parsing
    this.parsing = []
    for (const { stream, at, name, data } of pushes) {
      this.pushes.set(name, (this.pushes.get(name) ?? 0) + 1)
      if (name === 'alertsChanged') {
        const until = (JSON.parse(data) as AlertsChanged).situation.notificationsPausedUntil
        if (until !== null && !this.pauses[stream]!.has(until)) this.pauses[stream]!.set(until, at)
        continue
      }
      if (name !== 'sessionsChanged') continue
      const changed = JSON.parse(data) as SessionsChanged
      const sessions = this.seen[stream]!
      for (const row of changed.rows) {
        if (!row.latestPoint) continue
        const key = `${row.connectionId}/${row.eventSessionId}`
        const list = sessions.get(key) ?? []
        if (!list.some((s) => s.takenAt === row.latestPoint!.takenAt)) list.push({ takenAt: row.latestPoint.takenAt, at })
        sessions.set(key, list)
      }
    }
  }

  get count(): number {
    return this.seen.length
  }

  /**
   * When `stream` first showed the session's snapshot taken at `takenAt`, or one newer (a push
   * that skipped it showed a later state); undefined if it has not.
   */
  arrival(stream: number, connectionId: string, sessionId: string, takenAt: number): number | undefined {
    const list = this.seen[stream]?.get(`${connectionId}/${sessionId}`) ?? []
    let first: number | undefined
    for (const s of list) if (s.takenAt >= takenAt && (first === undefined || s.at < first)) first = s.at
    return first
  }

  /** When `stream` first had an alerts push saying notifications are paused until `until`. */
  pauseArrival(stream: number, until: string): number | undefined {
    return this.pauses[stream]?.get(until)
  }

  close(): void {
    for (const req of this.requests) req.destroy()
  }
}
