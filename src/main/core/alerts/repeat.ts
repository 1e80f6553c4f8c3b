// Repeats for unacknowledged criticals (issue 16): an alert firing critical that nobody has
// acknowledged is announced again every N minutes (Settings → Alerts; off by default), on its
// own grid from when it fired. An alert first seen mid-way (the app restarted, the rule was just
// turned on) waits for its next step: a restart never repeats everything at once.
export class CriticalRepeats {
  /** Per alert id: the step (whole periods since it fired) last announced. */
  private readonly announced = new Map<number, number>()

  /** The ids due for a repeat now, out of the alerts firing critical unacknowledged. */
  due(firing: readonly { id: number; firedAt: number }[], everyMs: number, now: number): number[] {
    const due: number[] = []
    const seen = new Set<number>()
    for (const alert of firing) {
      seen.add(alert.id)
      const step = Math.floor((now - alert.firedAt) / everyMs)
      const last = this.announced.get(alert.id)
      if (last === undefined) this.announced.set(alert.id, step)
      else if (step > last) {
        this.announced.set(alert.id, step)
        due.push(alert.id)
      }
    }
    // Acknowledged, snoozed, muted or resolved since: forgotten; firing again, a fresh grid.
    for (const id of [...this.announced.keys()]) if (!seen.has(id)) this.announced.delete(id)
    return due
  }

  clear(): void {
    this.announced.clear()
  }
}
