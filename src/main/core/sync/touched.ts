// What a unit of work yields for the judgement after it (app/monitor.ts): the sessions of its
// connection whose record, snapshot or viewer list it stored. The judgement reads and judges
// those alone, so a poll that touched one session of a hundred costs one session. A change that
// concerns every session (the first judgement, the clock finding something due, an operator's
// rule or levels) judges `everySession()`.
export class TouchedSessions {
  private readonly ids = new Set<string>()
  private every = false

  /** Every session of the connection: nothing can be left out. */
  static everySession(): TouchedSessions {
    const touched = new TouchedSessions()
    touched.every = true
    return touched
  }

  /** Whether this stands for every session of the connection. */
  get all(): boolean {
    return this.every
  }

  /** The sessions touched (empty when `all`: ask `has`). */
  get sessionIds(): ReadonlySet<string> {
    return this.ids
  }

  add(...eventSessionIds: readonly string[]): this {
    if (!this.every) for (const id of eventSessionIds) this.ids.add(id)
    return this
  }

  has(eventSessionId: string): boolean {
    return this.every || this.ids.has(eventSessionId)
  }

  /** These and `other`'s, as one (what an earlier judgement left owed, with a new unit's). */
  with(other: TouchedSessions): TouchedSessions {
    if (this.every || other.every) return TouchedSessions.everySession()
    return new TouchedSessions().add(...this.ids, ...other.ids)
  }
}
