// Where each critical stands on its repeat grid (alerts.repeat_step), as a column of the alert:
// a restarted core neither repeats a step already announced nor skips one that came round while
// it was down.
import type { Db } from './db'
import { statement } from './statements'

/** Per alert id: the step (whole periods since it fired) last announced. */
export function repeatSteps(db: Db): Map<number, number> {
  const rows = statement(db, 'SELECT id, repeat_step AS step FROM alerts WHERE repeat_step IS NOT NULL').all() as { id: number; step: number }[]
  return new Map(rows.map((r) => [r.id, r.step]))
}

/** Makes the stored steps `next`: the alerts it names get their step, every other alert none. */
export function saveRepeatSteps(db: Db, next: ReadonlyMap<number, number>): void {
  const held = repeatSteps(db)
  const set = statement(db, 'UPDATE alerts SET repeat_step = ? WHERE id = ?')
  for (const [id, step] of next) if (held.get(id) !== step) set.run(step, id)
  for (const id of held.keys()) if (!next.has(id)) set.run(null, id)
}
