// The simulated service's state: sessions start and end, viewers join and leave, reliability
// wanders with occasional incidents, traffic totals grow. Time only moves when the world is
// observed (`advanceTo`), so a fake clock makes every test repeatable.
import { EVENT_NAMES } from './catalog'
import { createRandom, type Random } from './random'
import { createViewer, type SimViewer } from './viewers'

export interface WorldOptions {
  seed: number
  platformId: string
  tenantId: string
  /** Sessions live when the world starts. */
  liveSessions: number
  /** Ended sessions in the past week, for history. */
  endedSessions: number
  /** Typical peak audience of a live session. */
  viewersPerSession: number
  /** Whether new sessions start and live ones end as time passes (off for fixed benchmarks). */
  churnSessions: boolean
  /** Whether incidents strike at random (default on; off where a test drives them itself). */
  randomIncidents?: boolean
  /** An incident in the first live session at a set time (`serve --demo-incident`). */
  scheduledIncident?: ScheduledIncident
}

export interface IncidentOptions {
  /** Points of reliability lost (0–100 scale). */
  drop: number
  minutes: number
}

export interface ScheduledIncident extends IncidentOptions {
  at: number
}

export interface SimSession {
  eventSessionId: string
  contentId: string
  eventName: string
  startedAt: number
  updatedAt: number
  endsAt: number
  hasEnded: boolean
  /** Audience the session is heading for; the live count drifts towards it. */
  targetAudience: number
  /** 0–100, the scale this simulator reports. */
  reliability: number
  baselineReliability: number
  incidentUntil: number
  /** An incident a test or demo asked for: reliability held `drop` points down until `until`. */
  forcedIncident: { drop: number; until: number } | null
  /** One site's trouble a test asked for (an office's ECDN peer down): its viewers' reliability
   *  is held at `reliability` until `until`, while the session's own score carries on. */
  siteIncidents?: Map<number, { reliability: number; until: number }>
  cdnTraffic: number
  ecdnTraffic: number
  ecdnShare: number
  siteBias: number
  viewers: SimViewer[]
  /** Indexes into `viewers` of those still watching. */
  active: number[]
  /** A crowd: this many viewers, all watching, generated when listed (crowd.ts), never held. */
  crowd?: number
  /** What viewersCount says once it has ended: 0 unless a test asks (reportCountAfterEnd). */
  countAfterEnd?: number
}

const STEP_MS = 1000
/** Catching up after a long gap uses coarser steps, so a late observer costs at most this many. */
const MAX_STEPS_PER_ADVANCE = 3600

export class World {
  readonly sessions: SimSession[] = []
  private readonly random: Random
  private now: number
  private scheduled: ScheduledIncident | undefined

  constructor(
    private readonly options: WorldOptions,
    startAt: number
  ) {
    this.random = createRandom(options.seed)
    this.now = startAt
    this.scheduled = options.scheduledIncident
    for (let i = 0; i < options.endedSessions; i++) this.addEndedSession(i)
    for (let i = 0; i < options.liveSessions; i++) this.addLiveSession(this.random.between(5, 50) * 60_000)
    this.sessions.sort((a, b) => a.startedAt - b.startedAt || a.eventSessionId.localeCompare(b.eventSessionId))
  }

  get platformId(): string {
    return this.options.platformId
  }
  get tenantId(): string {
    return this.options.tenantId
  }
  get time(): number {
    return this.now
  }

  advanceTo(time: number): void {
    if (time <= this.now) return
    const gap = time - this.now
    const step = Math.max(STEP_MS, Math.ceil(gap / MAX_STEPS_PER_ADVANCE))
    while (this.now < time) {
      const dt = Math.min(step, time - this.now)
      this.now += dt
      this.step(dt)
    }
  }

  /** A live session of `viewers` viewers, all watching, that costs no memory (crowd.ts). */
  addCrowdSession(viewers: number): SimSession {
    const session = this.newSession(this.now - 30 * 60_000, 4 * 3600_000)
    session.crowd = viewers
    session.targetAudience = viewers
    this.sessions.push(session)
    this.sessions.sort((a, b) => a.startedAt - b.startedAt || a.eventSessionId.localeCompare(b.eventSessionId))
    return session
  }

  /** Gives the `index`th session (in start order) another id: a hostile service's ids, say "." and "..". */
  renameSession(index: number, id: string): void {
    const session = this.sessions[index]
    if (!session) throw new Error(`no simulated session at ${index}`)
    session.eventSessionId = id
    this.sessions.sort((a, b) => a.startedAt - b.startedAt || a.eventSessionId.localeCompare(b.eventSessionId))
  }

  find(id: string): SimSession | undefined {
    return this.sessions.find((s) => s.eventSessionId === id)
  }

  /**
   * From now on, this live session's reliability is `drop` points below its baseline (at once,
   * not drifting there) for `minutes`, then it recovers. Nothing else changes, so a test knows
   * that exactly this session's reliability fell.
   */
  incident(id: string, options: IncidentOptions): void {
    const session = this.find(id)
    if (!session) throw new Error(`no simulated session ${id}`)
    if (session.hasEnded) throw new Error(`simulated session ${id} has ended`)
    if (!(options.drop > 0 && options.drop <= 100) || !(options.minutes > 0)) {
      throw new Error('an incident needs a drop from 0 to 100 points and a positive number of minutes')
    }
    session.forcedIncident = { drop: options.drop, until: this.now + options.minutes * 60_000 }
    session.reliability = clamp(session.baselineReliability - options.drop, 0, 100)
  }

  /** From now on, for `minutes`, the viewers of `siteCode` in this session watch at `reliability`
   *  (0–100); the session's own reliabilityScore is left as it is. */
  siteIncident(id: string, siteCode: number, options: { reliability: number; minutes: number }): void {
    const session = this.find(id)
    if (!session) throw new Error(`no simulated session ${id}`)
    if (!(options.reliability >= 0 && options.reliability <= 100) || !(options.minutes > 0)) {
      throw new Error('a site incident needs a reliability from 0 to 100 and a positive number of minutes')
    }
    session.siteIncidents ??= new Map()
    session.siteIncidents.set(siteCode, { reliability: options.reliability, until: this.now + options.minutes * 60_000 })
  }

  /** The reliability a viewer of `siteCode` watches at now: its site's incident's, or the session's. */
  viewerReliability(session: SimSession, siteCode: number): number {
    const hit = session.siteIncidents?.get(siteCode)
    return hit && this.now < hit.until ? hit.reliability : session.reliability
  }

  /**
   * From now on this ended session's viewersCount is `count` (everyone who watched it, say), as
   * some services report once a session is over: a count after the end, never a concurrent peak.
   */
  reportCountAfterEnd(id: string, count: number): void {
    const session = this.find(id)
    if (!session?.hasEnded) throw new Error(`no ended simulated session ${id}`)
    session.countAfterEnd = count
  }

  /** Times a careless service gives: the first `withoutStart` viewers have no startedAt, the next
   *  `endBeforeStart` an endedAt a minute before their startedAt. */
  spoilViewerTimes(id: string, spoil: { withoutStart: number; endBeforeStart: number }): void {
    const session = this.find(id)
    if (!session) throw new Error(`no simulated session ${id}`)
    session.viewers.slice(0, spoil.withoutStart).forEach((v) => (v.startUnknown = true))
    session.viewers.slice(spoil.withoutStart, spoil.withoutStart + spoil.endBeforeStart).forEach((v) => (v.endedAt = v.startedAt - 60_000))
  }

  /** Ends a forced incident now: reliability climbs back to its baseline. */
  recover(id: string): void {
    const session = this.find(id)
    if (!session) throw new Error(`no simulated session ${id}`)
    session.forcedIncident = null
  }

  private step(dtMs: number): void {
    const seconds = dtMs / 1000
    if (this.scheduled && this.now >= this.scheduled.at) {
      const first = this.sessions.find((s) => !s.hasEnded)
      if (first) this.incident(first.eventSessionId, this.scheduled)
      this.scheduled = undefined
    }
    for (const session of this.sessions) {
      if (session.hasEnded) continue
      if (this.now >= session.endsAt && this.options.churnSessions) this.endSession(session)
      else this.stepLiveSession(session, seconds)
    }
    // Keep the wall interesting: new events start now and then.
    if (this.options.churnSessions && this.random.chance(seconds / 600)) {
      this.addLiveSession(0)
    }
  }

  private stepLiveSession(s: SimSession, seconds: number): void {
    const age = this.now - s.startedAt
    // Audiences ramp up over the first ten minutes.
    const ramp = Math.min(1, age / 600_000)
    const target = Math.round(s.targetAudience * (0.2 + 0.8 * ramp))

    // Incidents: reliability collapses for a few minutes, some viewers give up.
    const randomIncidents = this.options.randomIncidents ?? true
    if (randomIncidents && this.now >= s.incidentUntil && this.random.chance(seconds / 1800)) {
      s.incidentUntil = this.now + this.random.between(2, 6) * 60_000
    }
    const inIncident = this.now < s.incidentUntil
    if (s.forcedIncident && this.now >= s.forcedIncident.until) s.forcedIncident = null
    if (s.forcedIncident) {
      // Held down, with the usual jitter: the drop is there at the very next observation.
      const held = s.baselineReliability - s.forcedIncident.drop
      s.reliability = clamp(held + this.random.between(-0.3, 0.3), 0, 100)
    } else {
      const aim = inIncident ? s.baselineReliability - 18 : s.baselineReliability
      s.reliability += (aim - s.reliability) * Math.min(1, 0.08 * seconds) + this.random.between(-0.3, 0.3)
      s.reliability = clamp(s.reliability, 40, 100)
    }

    if (s.crowd !== undefined) {
      s.updatedAt = this.now // a crowd neither joins nor leaves: its viewers are made when listed
      return
    }
    const active = s.active.length
    const churn = active * (inIncident ? 0.004 : 0.0008) * seconds
    const joins = Math.max(0, target - active) * 0.03 * seconds + churn * (inIncident ? 0.3 : 1)
    for (let i = poisson(this.random, churn); i > 0 && s.active.length > 0; i--) this.leave(s)
    for (let i = poisson(this.random, joins); i > 0; i--) this.join(s)

    const bytes = s.active.length * 300_000 * seconds
    s.cdnTraffic += Math.round(bytes * (1 - s.ecdnShare))
    s.ecdnTraffic += Math.round(bytes * s.ecdnShare)
    s.updatedAt = this.now
  }

  private join(s: SimSession): void {
    const viewer = createViewer(this.random, s.viewers.length, this.now, s.siteBias)
    s.active.push(s.viewers.length)
    s.viewers.push(viewer)
  }

  private leave(s: SimSession): void {
    const slot = Math.floor(this.random.next() * s.active.length)
    const index = s.active[slot]
    if (index === undefined) return
    // Swap-remove keeps leaving O(1).
    s.active[slot] = s.active[s.active.length - 1] as number
    s.active.pop()
    const viewer = s.viewers[index]
    if (viewer) viewer.endedAt = this.now
  }

  private endSession(s: SimSession): void {
    s.hasEnded = true
    s.updatedAt = s.endsAt
    for (const index of s.active) {
      const viewer = s.viewers[index]
      if (viewer) viewer.endedAt = s.endsAt
    }
    s.active = []
  }

  private newSession(startedAt: number, durationMs: number): SimSession {
    return {
      eventSessionId: this.random.uuid(),
      contentId: `content-${this.random.int(1000, 9999)}`,
      eventName: this.freshEventName(),
      startedAt,
      updatedAt: startedAt,
      endsAt: startedAt + durationMs,
      hasEnded: false,
      targetAudience: Math.round(this.options.viewersPerSession * this.random.between(0.6, 1.2)),
      baselineReliability: this.random.between(96, 99.6),
      reliability: 98,
      incidentUntil: 0,
      forcedIncident: null,
      cdnTraffic: 0,
      ecdnTraffic: 0,
      ecdnShare: this.random.between(0.4, 0.85),
      siteBias: this.random.int(0, 100),
      viewers: [],
      active: []
    }
  }

  /** A name no live session is using, while there are any left: two live "CEO Town Hall"s confuse. */
  private freshEventName(): string {
    const inUse = new Set(this.sessions.filter((s) => !s.hasEnded).map((s) => s.eventName))
    const free = EVENT_NAMES.filter((name) => !inUse.has(name))
    return this.random.pick(free.length > 0 ? free : EVENT_NAMES)
  }

  /** A session already running for `ageMs`, with an audience that has had time to arrive. */
  private addLiveSession(ageMs: number): void {
    const s = this.newSession(this.now - ageMs, this.random.between(30, 120) * 60_000 + ageMs)
    s.reliability = s.baselineReliability
    const ramp = Math.min(1, ageMs / 600_000)
    const audience = Math.round(s.targetAudience * (0.2 + 0.8 * ramp))
    for (let i = 0; i < audience; i++) {
      const joinedAt = s.startedAt + this.random.next() * ageMs
      const viewer = createViewer(this.random, i, joinedAt, s.siteBias)
      s.active.push(i)
      s.viewers.push(viewer)
    }
    s.viewers.sort((a, b) => a.startedAt - b.startedAt)
    s.viewers.forEach((v, i) => (v.seq = i))
    const watchedSeconds = s.viewers.reduce((sum, v) => sum + (this.now - v.startedAt) / 1000, 0)
    s.cdnTraffic = Math.round(watchedSeconds * 300_000 * (1 - s.ecdnShare))
    s.ecdnTraffic = Math.round(watchedSeconds * 300_000 * s.ecdnShare)
    s.updatedAt = this.now
    this.sessions.push(s)
  }

  private addEndedSession(index: number): void {
    const daysAgo = 1 + index * (6 / Math.max(1, this.options.endedSessions))
    const durationMs = this.random.between(30, 90) * 60_000
    const s = this.newSession(this.now - daysAgo * 86_400_000, durationMs)
    s.hasEnded = true
    s.updatedAt = s.endsAt
    s.reliability = s.baselineReliability
    const audience = Math.round(s.targetAudience * this.random.between(0.05, 0.15))
    for (let i = 0; i < audience; i++) {
      const joinedAt = s.startedAt + this.random.next() * durationMs * 0.5
      const viewer = createViewer(this.random, i, joinedAt, s.siteBias)
      viewer.endedAt = Math.min(s.endsAt, joinedAt + this.random.between(0.2, 1) * durationMs)
      s.viewers.push(viewer)
    }
    s.viewers.sort((a, b) => a.startedAt - b.startedAt)
    s.viewers.forEach((v, i) => (v.seq = i))
    const watchedSeconds = s.viewers.reduce((sum, v) => sum + ((v.endedAt ?? s.endsAt) - v.startedAt) / 1000, 0)
    s.cdnTraffic = Math.round(watchedSeconds * 300_000 * (1 - s.ecdnShare))
    s.ecdnTraffic = Math.round(watchedSeconds * 300_000 * s.ecdnShare)
    this.sessions.push(s)
  }
}

function poisson(random: Random, mean: number): number {
  // Knuth for small means; normal approximation above that.
  if (mean <= 0) return 0
  if (mean > 30) return Math.max(0, Math.round(mean + Math.sqrt(mean) * gaussian(random)))
  const limit = Math.exp(-mean)
  let k = 0
  let p = random.next()
  while (p > limit) {
    k++
    p *= random.next()
  }
  return k
}

function gaussian(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next())
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v))
