// Repeats for unacknowledged criticals (issue 16): an alert firing critical that nobody has
// acknowledged is announced again every N minutes (Settings → Alerts; off by default), on its
// own grid from when it fired. An alert first seen mid-way (the rule was just turned on) waits
// for its next step. Where each alert stands is kept by `steps` (in the app, the alert's
// repeat_step column): a restarted core neither repeats a step again nor skips one.

/** Per alert id, the step (whole periods since it fired) last announced. */
export interface RepeatSteps {
  read(): Promise<ReadonlyMap<number, number>>
  write(next: ReadonlyMap<number, number>): Promise<void>
}

/** Steps kept in memory only (tests of the grid alone). */
export function stepsInMemory(): RepeatSteps {
  let held: ReadonlyMap<number, number> = new Map()
  return {
    read: async () => held,
    write: async (next) => {
      held = next
    }
  }
}

export class CriticalRepeats {
  constructor(private readonly steps: RepeatSteps = stepsInMemory()) {}

  /** The ids due for a repeat now, out of the alerts firing critical unacknowledged. */
  async due(firing: readonly { id: number; firedAt: number }[], everyMs: number, now: number): Promise<number[]> {
    const held = await this.steps.read()
    // Acknowledged, snoozed, muted or resolved since: forgotten; firing again, a fresh grid.
    const next = new Map<number, number>()
    const due: number[] = []
    for (const alert of firing) {
      const step = Math.floor((now - alert.firedAt) / everyMs)
      const last = held.get(alert.id)
      if (last !== undefined && step > last) due.push(alert.id)
      next.set(alert.id, last === undefined ? step : Math.max(step, last))
    }
    await this.steps.write(next)
    return due
  }

  clear(): Promise<void> {
    return this.steps.write(new Map())
  }
}
